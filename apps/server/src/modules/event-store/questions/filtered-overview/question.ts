import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count } from '../../rows.ts';
import type { ActiveDays } from '../active-days/question.ts';
import type { TransactionOutcomes } from '../transaction-outcomes/question.ts';
import type { WalletCounts } from '../wallet-counts/question.ts';

/** The overview's figures under the Analytics filters: what its three questions answer over one bucket. */
export type FilteredOverview = { outcomes: TransactionOutcomes; wallets: WalletCounts; days: ActiveDays };

/**
 * The overview card with the Analytics filters (docs/analytics.md, "Filters"; ADR 086) in one query: the
 * figures of transactionOutcomes (one bucket), walletCounts and activeDays, each by its own definition,
 * asked of the passing sessions found once per period instead of once per question (the filtered
 * questions read `events`, and finding the sessions is most of each one's cost).
 */
export type FilteredOverviewQuestion = {
  filteredOverview(
    projectId: string,
    range: TimeRange,
    previousRange: TimeRange,
    /** IANA, default UTC (as activeDays). */
    timeZone: string | undefined,
    filters: AnalyticsFilters,
  ): Promise<FilteredOverview>;
};

export const FilteredOverviewRow = z.object({
  total: count,
  submitted: count,
  failed: count,
  attempted: count,
  connected: count,
  fresh: count,
  wallet_days: count,
  user_days: count,
  previous_wallet_days: count,
});

export const filteredOverviewOf = (
  row: z.infer<typeof FilteredOverviewRow> | undefined,
): FilteredOverview => ({
  outcomes: {
    total: row?.total ?? 0,
    submitted: row?.submitted ?? 0,
    failed: row?.failed ?? 0,
    attempted: row?.attempted ?? 0,
  },
  wallets: { connected: row?.connected ?? 0, fresh: row?.fresh ?? 0 },
  days: {
    walletDays: row?.wallet_days ?? 0,
    userDays: row?.user_days ?? 0,
    previousWalletDays: row?.previous_wallet_days ?? 0,
  },
});
