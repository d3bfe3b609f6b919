import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { TransactionHistoryQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type HistoryFilter, historyFilterArgs, NO_HISTORY_FILTER } from '../lib/history-filter';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

export const HISTORY_PAGE_SIZE = 25;

/**
 * Newest first, searched and filtered, and with the screen's filters (the range's); `after` is the previous
 * page's nextCursor.
 */
export const TRANSACTION_HISTORY_QUERY = graphql(`
  query TransactionHistory(
    $projectId: ID!
    $from: DateTime
    $to: DateTime
    $first: Int
    $after: String
    $search: String
    $status: String
    $type: String
    $contract: String
    $selector: String
    $filters: AnalyticsFilters
  ) {
    transactionHistory(
      projectId: $projectId
      from: $from
      to: $to
      first: $first
      after: $after
      search: $search
      status: $status
      type: $type
      contract: $contract
      selector: $selector
      filters: $filters
    ) {
      rows { id hash time wallet type status chainId country browser }
      nextCursor
      total
    }
  }
`);

export type TransactionPage = TransactionHistoryQuery['transactionHistory'];
export type TransactionRow = TransactionPage['rows'][number];

export async function getTransactionHistory(
  range: AnalyticsRange,
  filter: HistoryFilter,
  after: string | null,
  signal?: AbortSignal,
): Promise<TransactionPage> {
  const variables = { ...range, ...historyFilterArgs(filter), first: HISTORY_PAGE_SIZE, after };
  const data = await graphqlRequest(TRANSACTION_HISTORY_QUERY, { variables, signal });
  return data.transactionHistory;
}

export function transactionHistoryQueryOptions(
  range: AnalyticsRange,
  filter: HistoryFilter = NO_HISTORY_FILTER,
) {
  return infiniteQueryOptions({
    queryKey: analyticsKeys.of('transactionHistory', range, { ...filter }),
    queryFn: ({ pageParam, signal }) => getTransactionHistory(range, filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function useTransactionHistory(range: AnalyticsRange, filter: HistoryFilter) {
  return useInfiniteQuery({
    ...transactionHistoryQueryOptions(range, filter),
    placeholderData: keepPreviousData,
  });
}
