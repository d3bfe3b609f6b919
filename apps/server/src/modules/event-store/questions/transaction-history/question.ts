import { type AnalyticsFilters, hasAnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { HistoryCursor } from '../../../../reading/cursor.ts';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count, numberOrNull, text, textOrNull } from '../../rows.ts';

export type TransactionHistoryRow = {
  id: string;
  hash: string | null;
  timeMs: number;
  wallet: string | null;
  kind: string | null;
  status: string;
  chainId: number | null;
  country: string | null;
  browser: string | null;
};

export type HistoryPage = { limit: number; after: HistoryCursor | null };

/**
 * What the history keeps (docs/analytics.md#searching-and-filtering-the-history); each part set narrows it,
 * none set keeps every transaction. Values come checked and lower case from the analytics service.
 */
export type HistoryFilter = {
  /** `0x` and 6–64 hex digits: the start of the transaction's hash (or any receipt's) or of its wallet. */
  search?: string | null;
  /** The latest stage (TransactionStatuses). */
  status?: string | null;
  kind?: 'coin' | 'contract' | null;
  /** The called contract's address, `0x` and 40 hex digits. */
  contract?: string | null;
  /** The called function's selector, `0x` and 8 hex digits. */
  selector?: string | null;
  /**
   * The Analytics screen's filters (docs/analytics.md, "Filters"): the transactions whose request's
   * session passes them, as every other filtered figure keeps them.
   */
  sessions?: AnalyticsFilters | null;
};

export const NO_FILTER: HistoryFilter = {};

/** Whether any part of the filter is set. */
export const isFiltered = (filter: HistoryFilter): boolean =>
  Boolean(filter.search || filter.status || filter.kind || filter.contract || filter.selector) ||
  hasAnalyticsFilters(filter.sessions);

/** Whether the Analytics filters are set and nothing else of the history's filter is. */
export const onlyAnalyticsFilters = (filter: HistoryFilter): boolean =>
  hasAnalyticsFilters(filter.sessions) && !isFiltered({ ...filter, sessions: undefined });

/**
 * One page of the transactions requested in the range that the filter keeps, newest first, strictly after
 * the cursor (docs/analytics.md#transaction-history-and-a-single-transaction).
 */
export type TransactionHistoryQuestion = {
  transactionHistory(
    projectId: string,
    range: TimeRange,
    page: HistoryPage,
    filter?: HistoryFilter,
  ): Promise<TransactionHistoryRow[]>;
};

/** Named `t_…`: a ClickHouse alias equal to a column's name would take that column's place. */
export const HistoryRow = z.object({
  transaction_id: text,
  time_ms: count,
  t_hash: textOrNull,
  t_wallet: textOrNull,
  t_kind: textOrNull,
  t_status: text,
  t_chain_id: numberOrNull,
  t_country: textOrNull,
  t_browser: textOrNull,
});

export const historyRowOf = (row: z.infer<typeof HistoryRow>): TransactionHistoryRow => ({
  id: row.transaction_id,
  hash: row.t_hash,
  timeMs: row.time_ms,
  wallet: row.t_wallet,
  kind: row.t_kind,
  status: row.t_status,
  chainId: row.t_chain_id,
  country: row.t_country,
  browser: row.t_browser,
});
