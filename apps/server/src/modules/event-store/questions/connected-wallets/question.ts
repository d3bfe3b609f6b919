import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange } from '../../../../reading/time-range.ts';

/**
 * Distinct wallets connected in the range, each in the bucket of its first connection in the range
 * (docs/analytics.md#charts-and-tables). Rows: BucketValueRow (rows.ts).
 */
export type ConnectedWalletsQuestion = {
  connectedWallets(
    projectId: string,
    range: BucketedRange,
    filters?: AnalyticsFilters,
  ): Promise<Map<number, number>>;
};
