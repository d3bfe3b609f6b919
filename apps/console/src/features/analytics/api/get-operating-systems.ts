import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { OperatingSystemsQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys, SHARE_LIMIT } from './analytics-keys';

/**
 * The Metrics tab's operatingSystems share: distinct users per operating system. The server sorts by value.
 */
export const OPERATINGSYSTEMS_QUERY = graphql(`
  query OperatingSystems($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int, $filters: AnalyticsFilters) {
    operatingSystems(projectId: $projectId, from: $from, to: $to, limit: $limit, filters: $filters) { key value }
  }
`);

export async function getOperatingSystems(
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<OperatingSystemsQuery['operatingSystems']> {
  const data = await graphqlRequest(OPERATINGSYSTEMS_QUERY, {
    variables: { ...range, limit: SHARE_LIMIT },
    signal,
  });
  return data.operatingSystems;
}

export function operatingSystemsQueryOptions(range: AnalyticsRange) {
  return queryOptions({
    queryKey: analyticsKeys.of('operatingSystems', range),
    queryFn: ({ signal }) => getOperatingSystems(range, signal),
  });
}

export function useOperatingSystems(range: AnalyticsRange) {
  return useQuery(operatingSystemsQueryOptions(range));
}
