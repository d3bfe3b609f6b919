import type { CohortDimension, CohortQuery, CohortRow, RetentionReturn } from '../../wallet-questions.ts';

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

/** Where return events can lie: from the first cohort's next period to the last cell's end or `untilMs`. */
export function returnsEndMs(query: CohortQuery): number {
  const cohorts = Math.ceil((query.range.toMs - query.range.fromMs) / query.periodMs);
  return Math.min(query.untilMs, query.range.fromMs + (cohorts + query.periods) * query.periodMs);
}

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
