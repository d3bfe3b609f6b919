import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { TransactionHistoryQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

export const HISTORY_PAGE_SIZE = 25;

/** Newest first; `after` is the previous page's nextCursor. */
export const TRANSACTION_HISTORY_QUERY = graphql(`
  query TransactionHistory($projectId: ID!, $from: DateTime, $to: DateTime, $first: Int, $after: String) {
    transactionHistory(projectId: $projectId, from: $from, to: $to, first: $first, after: $after) {
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
  after: string | null,
  signal?: AbortSignal,
): Promise<TransactionPage> {
  const variables = { ...range, first: HISTORY_PAGE_SIZE, after };
  const data = await graphqlRequest(TRANSACTION_HISTORY_QUERY, { variables, signal });
  return data.transactionHistory;
}

export function transactionHistoryQueryOptions(range: AnalyticsRange) {
  return infiniteQueryOptions({
    queryKey: analyticsKeys.of('transactionHistory', range),
    queryFn: ({ pageParam, signal }) => getTransactionHistory(range, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function useTransactionHistory(range: AnalyticsRange) {
  return useInfiniteQuery(transactionHistoryQueryOptions(range));
}
