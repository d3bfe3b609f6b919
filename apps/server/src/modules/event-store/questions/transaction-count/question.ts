import type { TimeRange } from '../../../../reading/time-range.ts';
import type { HistoryFilter } from '../transaction-history/question.ts';

/**
 * How many transactions requested in the range the history's filter keeps: the total over every page of
 * `transactionHistory` with the same filter (docs/analytics.md#searching-and-filtering-the-history).
 */
export type TransactionCountQuestion = {
  transactionCount(projectId: string, range: TimeRange, filter: HistoryFilter): Promise<number>;
};
