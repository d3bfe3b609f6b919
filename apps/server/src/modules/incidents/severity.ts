import type { IncidentImpact, Severity, SeverityCounts } from '@polyflow/contracts/incidents';

/**
 * Severity is a property of the incident, not of the period being looked at: it is decided from the
 * incident's whole life (first to last occurrence), so the same incident has the same severity on every
 * screen and in every period. Rules (docs/acquisition-and-incidents.md, "Severity"), first match wins:
 * - Severe: it made transactions fail AND it reached ≥ 2 % of the project's active users (≥ 10 users).
 * - High: it made a transaction fail; or it reached ≥ 5 % of the active users (≥ 10 users).
 * - Mid: it reached ≥ 1 % of the active users (≥ 3 users).
 * - Low: everything else.
 *
 * Reach is relative (the users it hit among the users active between its first and last day) so that the
 * levels spread the same way on a dapp of a hundred users and on one of a million, and the minimum user
 * counts keep a handful of people on a tiny project from looking like an outage. "Users" are the SDK's
 * anonymous users rather than wallets: an error before connecting hits people who have no wallet yet.
 */
export const SEVERITY_THRESHOLDS = {
  severeReach: 0.02,
  highReach: 0.05,
  midReach: 0.01,
  /** Fewest users for Severe, and for High by reach alone. */
  manyUsers: 10,
  /** Fewest users for Mid. */
  someUsers: 3,
} as const;

/** What severity is decided from: the lifetime impact and the share of active users it reached. */
export type SeverityInput = Pick<IncidentImpact, 'affectedUsers' | 'failedTransactions'> & { reach: number };

export function severityOf({ affectedUsers, failedTransactions, reach }: SeverityInput): Severity {
  const t = SEVERITY_THRESHOLDS;
  const breaksTransactions = failedTransactions > 0;
  const isWide = (share: number, users: number) => reach >= share && affectedUsers >= users;
  if (breaksTransactions && isWide(t.severeReach, t.manyUsers)) return 'severe';
  if (breaksTransactions || isWide(t.highReach, t.manyUsers)) return 'high';
  if (isWide(t.midReach, t.someUsers)) return 'mid';
  return 'low';
}

export function countBySeverity(severities: Iterable<Severity>): SeverityCounts {
  const counts: SeverityCounts = { low: 0, mid: 0, high: 0, severe: 0 };
  for (const severity of severities) counts[severity] += 1;
  return counts;
}
