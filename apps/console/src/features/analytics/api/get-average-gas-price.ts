import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { AverageGasPriceQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/** Mean effective gas price (wei) of the transactions mined in each bucket; null where none were. */
export const AVERAGE_GAS_PRICE_QUERY = graphql(`
  query AverageGasPrice($projectId: ID!, $from: DateTime, $to: DateTime, $granularity: String, $previous: Boolean, $filters: AnalyticsFilters) {
    averageGasPrice(projectId: $projectId, from: $from, to: $to, granularity: $granularity, previous: $previous, filters: $filters) {
      from
      to
      value
    }
  }
`);

export type AverageBucket = AverageGasPriceQuery['averageGasPrice'][number];
type SeriesRange = AnalyticsRange & { granularity: string };
type SeriesOptions = { previous?: boolean; enabled?: boolean };

/** With `previous`, the buckets of the previous period, bucket i beside the range's bucket i. */
export async function getAverageGasPrice(
  range: SeriesRange,
  previous: boolean,
  signal?: AbortSignal,
): Promise<AverageBucket[]> {
  const data = await graphqlRequest(AVERAGE_GAS_PRICE_QUERY, {
    variables: { ...range, previous },
    signal,
  });
  return data.averageGasPrice;
}

/** `previous`: the previous period's series, asked only while `enabled` (the chart's overlay is on). */
export function averageGasPriceQueryOptions(
  range: SeriesRange,
  { previous = false, enabled = true }: SeriesOptions = {},
) {
  return queryOptions({
    queryKey: analyticsKeys.of('averageGasPrice', range, { granularity: range.granularity, previous }),
    queryFn: ({ signal }) => getAverageGasPrice(range, previous, signal),
    enabled,
  });
}

export function useAverageGasPrice(range: SeriesRange, options: SeriesOptions = {}) {
  return useQuery(averageGasPriceQueryOptions(range, options));
}
