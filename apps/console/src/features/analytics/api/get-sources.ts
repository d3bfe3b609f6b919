import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { SourcesQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys, SHARE_LIMIT } from './analytics-keys';

/**
 * The Metrics tab's sources share: distinct users per landing UTM source; key null = none. The server sorts by value.
 */
export const SOURCES_QUERY = graphql(`
  query Sources($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int, $filters: AnalyticsFilters) {
    sources(projectId: $projectId, from: $from, to: $to, limit: $limit, filters: $filters) { key value }
  }
`);

export async function getSources(
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<SourcesQuery['sources']> {
  const data = await graphqlRequest(SOURCES_QUERY, { variables: { ...range, limit: SHARE_LIMIT }, signal });
  return data.sources;
}

export function sourcesQueryOptions(range: AnalyticsRange) {
  return queryOptions({
    queryKey: analyticsKeys.of('sources', range),
    queryFn: ({ signal }) => getSources(range, signal),
  });
}

export function useSources(range: AnalyticsRange) {
  return useQuery(sourcesQueryOptions(range));
}
