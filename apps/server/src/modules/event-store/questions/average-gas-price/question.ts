import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange } from '../../../../reading/time-range.ts';

/**
 * Mean effective gas price (wei) of the receipts logged in each bucket, optionally on one chain
 * (docs/analytics.md#transactions). Rows: BucketValueRow (rows.ts).
 */
export type AverageGasPriceQuestion = {
  averageGasPrice(
    projectId: string,
    range: BucketedRange,
    chainId: number | null,
    filters?: AnalyticsFilters,
  ): Promise<Map<number, number>>;
};
