import {
  LIFECYCLE_STAGES,
  LIFECYCLE_WINDOWS,
  type LifecycleCounts,
  type LifecycleStage,
  NO_POWER,
} from '../../wallet-questions.ts';

export { NO_POWER };

/**
 * Lifecycle stages (docs/wallets.md, "Lifecycle stages"): each wallet's active UTC days (days any event
 * carried it, `wallet_days`) up to the as-of day A decide its stage, the first of New, Resurrected, Power,
 * Active, At risk, Churned that holds. Both engines count, per wallet, its first day and its active days
 * in three windows, then apply `STAGE_RULES` with the Power threshold that `powerThreshold` derives from
 * the recently active wallets' counts.
 */

const W = LIFECYCLE_WINDOWS;

/** The stage rules over the facts as SQL, shared by both engines (`power`: the threshold parameter). */
export const stageSql = (power: string) => `CASE
    WHEN age < ${W.newDays} THEN 'new'
    WHEN n28 > 0 AND age >= ${2 * W.lifeDays} AND n_before = 0 THEN 'resurrected'
    WHEN n14 > 0 AND n28 >= ${power} THEN 'power'
    WHEN n14 > 0 THEN 'active'
    WHEN n28 > 0 THEN 'at_risk'
    ELSE 'churned' END`;

/** The wallets Power is chosen among: recently active, neither New nor Resurrected. */
export const POWER_CANDIDATE_SQL = `age >= ${W.newDays} AND n14 > 0
    AND NOT (age >= ${2 * W.lifeDays} AND n_before = 0)`;

/**
 * The Power threshold from the candidates' counts (active days in the last 28 → wallets): the count of
 * the ⌈N/10⌉-th candidate in descending order, and at least 2. Null when there is no candidate.
 */
export function powerThreshold(histogram: ReadonlyMap<number, number>): number | null {
  const total = [...histogram.values()].reduce((sum, wallets) => sum + wallets, 0);
  if (total === 0) return null;
  const rank = Math.ceil(total * W.powerShare);
  let seen = 0;
  for (const days of [...histogram.keys()].sort((a, b) => b - a)) {
    seen += histogram.get(days) ?? 0;
    if (seen >= rank) return Math.max(W.powerMinDays, days);
  }
  return null;
}

export function countsOf(
  rows: readonly { stage: string; wallets: number }[],
  threshold: number | null,
): LifecycleCounts {
  const counts = Object.fromEntries(LIFECYCLE_STAGES.map((stage) => [stage, 0])) as Record<
    LifecycleStage,
    number
  >;
  for (const row of rows) counts[row.stage as LifecycleStage] = row.wallets;
  return { ...counts, powerThreshold: threshold };
}
