import type { IncidentImpact, Severity, SeverityCounts } from '@polyflow/contracts/incidents';

/**
 * Severity from impact, never at random. Rules (docs/acquisition-and-incidents.md, "Severity"), first
 * match wins:
 * - Severe: it made transactions fail AND (it hit ≥ 10 users OR it recurred on ≥ 3 days); or it hit ≥ 100 users.
 * - High: it made a transaction fail; or it hit ≥ 25 users.
 * - Mid: it hit ≥ 3 users; or it recurred on ≥ 2 days; or it happened ≥ 10 times.
 * - Low: everything else (one or two people, one day, a few times, no transaction lost).
 *
 * "Users" are the SDK's anonymous users rather than wallets: an error before connecting hits people who
 * have no wallet yet, and every wallet in an occurrence belongs to a user.
 */
export const SEVERITY_THRESHOLDS = {
  severeUsersWithFailures: 10,
  severeDaysWithFailures: 3,
  severeUsers: 100,
  highUsers: 25,
  midUsers: 3,
  midDays: 2,
  midOccurrences: 10,
} as const;

export function severityOf(impact: IncidentImpact): Severity {
  const t = SEVERITY_THRESHOLDS;
  const breaksTransactions = impact.failedTransactions > 0;
  if (
    (breaksTransactions &&
      (impact.affectedUsers >= t.severeUsersWithFailures || impact.activeDays >= t.severeDaysWithFailures)) ||
    impact.affectedUsers >= t.severeUsers
  ) {
    return 'severe';
  }
  if (breaksTransactions || impact.affectedUsers >= t.highUsers) return 'high';
  if (
    impact.affectedUsers >= t.midUsers ||
    impact.activeDays >= t.midDays ||
    impact.occurrences >= t.midOccurrences
  ) {
    return 'mid';
  }
  return 'low';
}

export function countBySeverity(severities: Iterable<Severity>): SeverityCounts {
  const counts: SeverityCounts = { low: 0, mid: 0, high: 0, severe: 0 };
  for (const severity of severities) counts[severity] += 1;
  return counts;
}
