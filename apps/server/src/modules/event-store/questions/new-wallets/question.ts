import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange } from '../../../../reading/time-range.ts';

/**
 * Wallets connected in the range that no event carried before `from`, in the bucket of their first
 * connection (docs/analytics.md#charts-and-tables). Rows: BucketValueRow (rows.ts).
 */
export type NewWalletsQuestion = {
  newWallets(
    projectId: string,
    range: BucketedRange,
    filters?: AnalyticsFilters,
  ): Promise<Map<number, number>>;
};
