import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { BrowsersQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys, SHARE_LIMIT } from './analytics-keys';

/**
 * The Metrics tab's browsers share: distinct users per browser; key null = unknown. The server sorts
 * by value.
 */
export const BROWSERS_QUERY = graphql(`
  query Browsers($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int, $filters: AnalyticsFilters) {
    browsers(projectId: $projectId, from: $from, to: $to, limit: $limit, filters: $filters) { key value }
  }
`);

export async function getBrowsers(
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<BrowsersQuery['browsers']> {
  const data = await graphqlRequest(BROWSERS_QUERY, { variables: { ...range, limit: SHARE_LIMIT }, signal });
  return data.browsers;
}

export function browsersQueryOptions(range: AnalyticsRange) {
  return queryOptions({
    queryKey: analyticsKeys.of('browsers', range),
    queryFn: ({ signal }) => getBrowsers(range, signal),
  });
}

export function useBrowsers(range: AnalyticsRange) {
  return useQuery(browsersQueryOptions(range));
}
