import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count } from '../../rows.ts';

export type WalletCounts = {
  /** Wallets connected in the range. */
  connected: number;
  /** Of those, the ones no event of the project carried before the range. */
  fresh: number;
};

/**
 * The overview's two wallet tiles in one query: the definitions of connected-wallets and new-wallets over
 * one bucket (docs/analytics.md#the-overview-card-analyticsoverviewprojectid-from-to-previous).
 */
export type WalletCountsQuestion = {
  walletCounts(projectId: string, range: TimeRange, filters?: AnalyticsFilters): Promise<WalletCounts>;
};

export const CountsRow = z.object({ connected: count, fresh: count });

export const walletCountsOf = (row: z.infer<typeof CountsRow> | undefined): WalletCounts => ({
  connected: row?.connected ?? 0,
  fresh: row?.fresh ?? 0,
});
