import { z } from 'zod';
import { DAY_MS, localDayRuns } from '../../../../reading/time-range.ts';
import { localDaySql } from '../../local-days.ts';
import { count } from '../../rows.ts';
import {
  type CohortDimension,
  type CohortQuery,
  type CohortRow,
  cohortZoneOf,
  periodStartMs,
  type RetentionReturn,
} from '../../wallet-questions.ts';

/**
 * Retention cohorts (docs/wallets.md, "Retention cohorts"): a wallet belongs to the cohort of the period
 * (from `from`, `periodMs` long) of its first connection ever, if that falls in the range; it returned in
 * period k (1…periods) when a return event of it (a `wallet_connected` event carrying it, or a
 * transaction's `submitted` stage sent from it) lies in the period k after its cohort's, before `untilMs`.
 * Narrowed to one attribution value: the landing UTM (source, medium or campaign) its first connection's
 * event carries, null for none.
 */

export const UTM_COLUMN: Record<CohortDimension, string> = {
  source: 'utm_source',
  medium: 'utm_medium',
  campaign: 'utm_campaign',
};

/** The return events, and the wallet they count for, per switch (both engines' column names). */
export const RETURN_EVENTS: Record<RetentionReturn, { where: string; wallet: string }> = {
  connected: { where: `type = 'wallet_connected' AND wallet_address IS NOT NULL`, wallet: 'wallet_address' },
  transacted: {
    where: `type = 'tx' AND tx_stage = 'submitted' AND coalesce(tx_from, wallet_address) IS NOT NULL`,
    wallet: 'coalesce(tx_from, wallet_address)',
  },
};

/** How many cohorts the range holds (the last one may be cut by `to`). */
function cohortCount(query: CohortQuery): number {
  let cohorts = Math.max(1, Math.ceil((query.range.toMs - query.range.fromMs) / query.periodMs));
  while (periodStartMs(query, cohorts) < query.range.toMs) cohorts++;
  while (cohorts > 1 && periodStartMs(query, cohorts - 1) >= query.range.toMs) cohorts--;
  return cohorts;
}

/** Where return events can lie: from the first cohort's next period to the last cell's end or `untilMs`. */
export function returnsEndMs(query: CohortQuery): number {
  return Math.min(query.untilMs, periodStartMs(query, cohortCount(query) + query.periods));
}

/**
 * The SQL of a time's period (0, 1, … from `from`), given its UTC milliseconds `ms`: elapsed periods, or
 * in a zone, its local day (`localDaySql`, over `from` … the returns' end) divided by the period's days.
 * `elapsed` is the engine's expression of the first (with its own parameters).
 */
export function periodSql(
  query: CohortQuery,
  ms: string,
  div: (a: string, b: string) => string,
  elapsed: string,
): string {
  const zone = cohortZoneOf(query);
  if (!zone) return elapsed;
  const runs = localDayRuns(
    { fromMs: query.range.fromMs, toMs: Math.max(returnsEndMs(query), query.range.toMs) },
    zone,
  );
  // The service caps a cohort range at 400 days (and its returns 12 periods on): always within the runs' limit.
  if (!runs) throw new Error('a cohort range longer than localDayRuns numbers');
  return div(localDaySql(runs, ms, div), String(query.periodMs / DAY_MS));
}

/** Whether the statement reads the `period` parameter (not in a zone: DuckDB refuses one it does not use). */
export const usesPeriodParam = (query: CohortQuery): boolean => cohortZoneOf(query) === null;

/** The cohort rows from sizes and (cohort, k) → returned counts, cohorts in order. */
export function cohortRows(
  query: CohortQuery,
  sizes: readonly { cohort: number; size: number }[],
  returns: readonly { cohort: number; k: number; wallets: number }[],
): CohortRow[] {
  const rows = new Map<number, CohortRow>(
    sizes.map(({ cohort, size }) => [
      cohort,
      { index: cohort, size, returned: Array.from({ length: query.periods }, () => 0) },
    ]),
  );
  for (const { cohort, k, wallets } of returns) {
    const row = rows.get(cohort);
    if (row && k >= 1 && k <= query.periods) row.returned[k - 1] = wallets;
  }
  return [...rows.values()].sort((a, b) => a.index - b.index);
}

/** Rows of both engines: each cohort's size, then its wallets returning k periods later. */
export const SizeRow = z.object({ cohort: count, size: count });
export const ReturnRow = z.object({ cohort: count, k: count, wallets: count });
