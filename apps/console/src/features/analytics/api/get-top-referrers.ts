import { type ReferrerRow, ReferrerRowSchema } from '@polyflow/contracts/analytics';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/** The server's maximum: the card shows the first ten and "Other", Show all lists these (lib/top-n.ts). */
export const TOP_REFERRERS_LIMIT = 100;

export const TOP_REFERRERS_QUERY = /* GraphQL */ `
  query TopReferrers($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int) {
    topReferrers(projectId: $projectId, from: $from, to: $to, limit: $limit) {
      domain
      users
      wallets
      transactions
    }
  }
`;

const ResultSchema = z.object({ topReferrers: z.array(ReferrerRowSchema) });

export async function getTopReferrers(range: AnalyticsRange, signal?: AbortSignal): Promise<ReferrerRow[]> {
  const variables = { ...range, limit: TOP_REFERRERS_LIMIT };
  const data = await graphqlRequest(TOP_REFERRERS_QUERY, { variables, schema: ResultSchema, signal });
  return data.topReferrers;
}

export function useTopReferrers(range: AnalyticsRange) {
  return useQuery(
    queryOptions({
      queryKey: analyticsKeys.of('topReferrers', range),
      queryFn: ({ signal }) => getTopReferrers(range, signal),
    }),
  );
}
