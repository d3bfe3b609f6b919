import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { TopReferrersQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/** The server's maximum: the card shows the first ten and "Other", Show all lists these (lib/top-n.ts). */
export const TOP_REFERRERS_LIMIT = 100;

export const TOP_REFERRERS_QUERY = graphql(`
  query TopReferrers($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int, $filters: AnalyticsFilters) {
    topReferrers(projectId: $projectId, from: $from, to: $to, limit: $limit, filters: $filters) {
      domain
      users
      wallets
      transactions
    }
  }
`);

export type ReferrerRow = TopReferrersQuery['topReferrers'][number];

export async function getTopReferrers(range: AnalyticsRange, signal?: AbortSignal): Promise<ReferrerRow[]> {
  const variables = { ...range, limit: TOP_REFERRERS_LIMIT };
  const data = await graphqlRequest(TOP_REFERRERS_QUERY, { variables, signal });
  return data.topReferrers;
}

export function topReferrersQueryOptions(range: AnalyticsRange) {
  return queryOptions({
    queryKey: analyticsKeys.of('topReferrers', range),
    queryFn: ({ signal }) => getTopReferrers(range, signal),
  });
}

export function useTopReferrers(range: AnalyticsRange) {
  return useQuery(topReferrersQueryOptions(range));
}
