import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { TopPagesQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys } from './analytics-keys';

/** The server's maximum: the card shows the first ten and "Other", Show all lists these (lib/top-n.ts). */
export const TOP_PAGES_LIMIT = 100;

export const TOP_PAGES_QUERY = graphql(`
  query TopPages($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int, $filters: AnalyticsFilters) {
    topPages(projectId: $projectId, from: $from, to: $to, limit: $limit, filters: $filters) {
      path
      users
      wallets
      transactions
    }
  }
`);

export type PageRow = TopPagesQuery['topPages'][number];

export async function getTopPages(range: AnalyticsRange, signal?: AbortSignal): Promise<PageRow[]> {
  const variables = { ...range, limit: TOP_PAGES_LIMIT };
  const data = await graphqlRequest(TOP_PAGES_QUERY, { variables, signal });
  return data.topPages;
}

export function topPagesQueryOptions(range: AnalyticsRange) {
  return queryOptions({
    queryKey: analyticsKeys.of('topPages', range),
    queryFn: ({ signal }) => getTopPages(range, signal),
  });
}

export function useTopPages(range: AnalyticsRange) {
  return useQuery(topPagesQueryOptions(range));
}
