import { type AverageBucket, AverageBucketSchema } from '@polyflow/contracts/analytics';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/** Mean effective gas price (wei) of the transactions mined in each bucket; null where none were. */
export const AVERAGE_GAS_PRICE_QUERY = /* GraphQL */ `
  query AverageGasPrice($projectId: ID!, $from: DateTime, $to: DateTime, $granularity: String) {
    averageGasPrice(projectId: $projectId, from: $from, to: $to, granularity: $granularity) { from to value }
  }
`;

const ResultSchema = z.object({ averageGasPrice: z.array(AverageBucketSchema) });
type SeriesRange = AnalyticsRange & { granularity: string };

export async function getAverageGasPrice(range: SeriesRange, signal?: AbortSignal): Promise<AverageBucket[]> {
  const data = await graphqlRequest(AVERAGE_GAS_PRICE_QUERY, {
    variables: { ...range },
    schema: ResultSchema,
    signal,
  });
  return data.averageGasPrice;
}

export function useAverageGasPrice(range: SeriesRange) {
  return useQuery(
    queryOptions({
      queryKey: analyticsKeys.of('averageGasPrice', range, { granularity: range.granularity }),
      queryFn: ({ signal }) => getAverageGasPrice(range, signal),
    }),
  );
}
