import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { FailedTransactionsQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/** Transactions whose latest stage is reverted or failed, in the bucket of their request. */
export const FAILED_TRANSACTIONS_QUERY = graphql(`
  query FailedTransactions($projectId: ID!, $from: DateTime, $to: DateTime, $granularity: String, $previous: Boolean, $filters: AnalyticsFilters) {
    failedTransactions(projectId: $projectId, from: $from, to: $to, granularity: $granularity, previous: $previous, filters: $filters) {
      from
      to
      value
    }
  }
`);

export type TimeBucket = FailedTransactionsQuery['failedTransactions'][number];
type SeriesRange = AnalyticsRange & { granularity: string };
type SeriesOptions = { previous?: boolean; enabled?: boolean };

/** With `previous`, the buckets of the previous period, bucket i beside the range's bucket i. */
export async function getFailedTransactions(
  range: SeriesRange,
  previous: boolean,
  signal?: AbortSignal,
): Promise<TimeBucket[]> {
  const data = await graphqlRequest(FAILED_TRANSACTIONS_QUERY, {
    variables: { ...range, previous },
    signal,
  });
  return data.failedTransactions;
}

/** `previous`: the previous period's series, asked only while `enabled` (the chart's overlay is on). */
export function failedTransactionsQueryOptions(
  range: SeriesRange,
  { previous = false, enabled = true }: SeriesOptions = {},
) {
  return queryOptions({
    queryKey: analyticsKeys.of('failedTransactions', range, { granularity: range.granularity, previous }),
    queryFn: ({ signal }) => getFailedTransactions(range, previous, signal),
    enabled,
  });
}

export function useFailedTransactions(range: SeriesRange, options: SeriesOptions = {}) {
  return useQuery(failedTransactionsQueryOptions(range, options));
}
