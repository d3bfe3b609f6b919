import { DEFAULT_TIME_ZONE, instantOfWallClock } from '@polyflow/contracts/time-zone';
import { z } from 'zod';
import { DAY_MS, type LocalDayRun, localDayRuns } from '../../../../reading/time-range.ts';
import { localDaySql } from '../../local-days.ts';
import { count } from '../../rows.ts';
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
 * carried it: `wallet_days`, DuckDB's `wallet_active_days`) up to the as-of day A decide its stage, the first of New, Resurrected, Power,
 * Active, At risk, Churned that holds. Both engines count, per wallet, its first day and its active days
 * in three windows, then apply `STAGE_RULES` with the Power threshold that `powerThreshold` derives from
 * the recently active wallets' counts, in one read (`GROUP_SQL`, `countsOfGroups`).
 */

const W = LIFECYCLE_WINDOWS;

/** The days the stages look back over, the as-of day included (A−55…A). */
export const WINDOW_DAYS = 2 * W.lifeDays;

/**
 * In a zone other than UTC, the stages' days are local days (docs/wallets.md): the window is the local
 * days A−55…A as instants, `[fromMs, toMs)`, numbered 0…55 by `localDayRuns`. Null in UTC, where
 * `wallet_days` (DuckDB: `wallet_active_days`) answers.
 */
export type LifecycleWindow = { fromMs: number; toMs: number; runs: LocalDayRun[] };

export function lifecycleWindow(asOfDay: string, timeZone: string | undefined): LifecycleWindow | null {
  if (!timeZone || timeZone === DEFAULT_TIME_ZONE) return null;
  return localWindow(asOfDay, timeZone);
}

/** The window of `lifecycleWindow` in any zone, UTC included (one wallet's facts, `walletStageFacts`). */
export function localWindow(asOfDay: string, timeZone: string): LifecycleWindow {
  const asOf = Date.parse(asOfDay);
  const fromMs = instantOfWallClock(asOf - (WINDOW_DAYS - 1) * DAY_MS, timeZone);
  const toMs = instantOfWallClock(asOf + DAY_MS, timeZone);
  const runs = localDayRuns({ fromMs, toMs }, timeZone);
  if (!runs) throw new Error('the lifecycle window is within localDayRuns');
  return { fromMs, toMs, runs };
}

/**
 * The local days back from A (0: A) of a time in the window, as SQL (`ms`: its UTC milliseconds; `div`:
 * the engine's integer division).
 */
export const daysBackSql = (window: LifecycleWindow, ms: string, div: (a: string, b: string) => string) =>
  `(${WINDOW_DAYS - 1} - ${localDaySql(window.runs, ms, div)})`;

/** The row both engines answer for one wallet's facts (`factsOfBacks`); none when it was not seen by A. */
export const BacksRow = z.object({ age: count, backs: z.array(count) });

/** The stage rules over the facts as SQL, shared by both engines (`power`: the threshold parameter). */
export const stageSql = (power: string) => `CASE
    WHEN age < ${W.newDays} THEN 'new'
    WHEN n28 > 0 AND age >= ${2 * W.lifeDays} AND n_before = 0 THEN 'resurrected'
    WHEN n14 > 0 AND n28 >= ${power} THEN 'power'
    WHEN n14 > 0 THEN 'active'
    WHEN n28 > 0 THEN 'at_risk'
    ELSE 'churned' END`;

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

/**
 * The stage rules with Power and Active not yet told apart (`recent`: the Power candidates), grouped with
 * the candidates' counts of active days in the last 28, so that one read of the facts gives both the
 * threshold's histogram and the counts (`countsOfGroups`).
 */
export const GROUP_SQL = `CASE
    WHEN age < ${W.newDays} THEN 'new'
    WHEN n28 > 0 AND age >= ${2 * W.lifeDays} AND n_before = 0 THEN 'resurrected'
    WHEN n14 > 0 THEN 'recent'
    WHEN n28 > 0 THEN 'at_risk'
    ELSE 'churned' END`;

export type LifecycleGroupRow = z.infer<typeof GroupRow>;

/**
 * The counts from `GROUP_SQL`'s groups (the candidates' rows by n28; the others' n28 is 0): the threshold
 * from the candidates' histogram, then a candidate is Power when its n28 reaches it, else Active, as
 * `stageSql` decides (a candidate has n14 > 0 and is neither New nor Resurrected).
 */
export function countsOfGroups(rows: readonly LifecycleGroupRow[]): LifecycleCounts {
  // With the Analytics filters, the threshold is still all wallets' (a wallet's stage does not depend on
  // the filters); only the matched wallets are counted.
  const histogram = new Map<number, number>();
  for (const row of rows) {
    if (row.stage === 'recent') histogram.set(row.n28, (histogram.get(row.n28) ?? 0) + row.wallets);
  }
  const threshold = powerThreshold(histogram);
  const power = threshold ?? NO_POWER;
  const stages = new Map<string, number>();
  for (const row of rows) {
    if (row.matched === 0) continue;
    const stage = row.stage === 'recent' ? (row.n28 >= power ? 'power' : 'active') : row.stage;
    stages.set(stage, (stages.get(stage) ?? 0) + row.wallets);
  }
  return countsOf(
    [...stages].map(([stage, wallets]) => ({ stage, wallets })),
    threshold,
  );
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

/**
 * Rows of both engines: `GROUP_SQL`'s groups, the candidates' by their active days in the last 28; with the
 * Analytics filters, also by `matched` (1: a passing session carried the wallet in the range, 0: none did).
 */
export const GroupRow = z.object({
  stage: z.string(),
  n28: count,
  wallets: count,
  matched: count.optional(),
});
