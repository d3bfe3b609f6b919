import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import { count } from '../../rows.ts';

export type TransactionOutcomes = {
  /** Every transaction first requested in the bucket, whatever its status. */
  total: number;
  /** Reached `submitted` (the wallet gave a hash). */
  submitted: number;
  /** Latest stage `reverted` (on chain) or `failed` (the wallet could not send it). */
  failed: number;
  /** Submitted, or failed before submission: the transactions the user did not reject. */
  attempted: number;
};

/** Transactions per bucket of their request time, by outcome (docs/analytics.md#transactions). */
export type TransactionOutcomesQuestion = {
  transactionOutcomes(
    projectId: string,
    range: BucketedRange,
    filters?: AnalyticsFilters,
  ): Promise<Map<number, TransactionOutcomes>>;
};

export const OutcomesRow = z.object({
  bucket: count,
  total: count,
  submitted: count,
  failed: count,
  attempted: count,
});

export const outcomesOf = ({
  total,
  submitted,
  failed,
  attempted,
}: z.infer<typeof OutcomesRow>): TransactionOutcomes => ({
  total,
  submitted,
  failed,
  attempted,
});
