import { type TimeBucket, TimeSeriesSchema } from '@polyflow/contracts/analytics';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/** Transactions whose latest stage is reverted or failed, in the bucket of their request. */
export const FAILED_TRANSACTIONS_QUERY = /* GraphQL */ `
  query FailedTransactions($projectId: ID!, $from: DateTime, $to: DateTime, $granularity: String) {
    failedTransactions(projectId: $projectId, from: $from, to: $to, granularity: $granularity) { from to value }
  }
`;

const ResultSchema = z.object({ failedTransactions: TimeSeriesSchema });
type SeriesRange = AnalyticsRange & { granularity: string };

export async function getFailedTransactions(range: SeriesRange, signal?: AbortSignal): Promise<TimeBucket[]> {
  const data = await graphqlRequest(FAILED_TRANSACTIONS_QUERY, {
    variables: { ...range },
    schema: ResultSchema,
    signal,
  });
  return data.failedTransactions;
}

export function useFailedTransactions(range: SeriesRange) {
  return useQuery(
    queryOptions({
      queryKey: analyticsKeys.of('failedTransactions', range, { granularity: range.granularity }),
      queryFn: ({ signal }) => getFailedTransactions(range, signal),
    }),
  );
}
