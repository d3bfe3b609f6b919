import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { DevicesQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { type AnalyticsRange, analyticsKeys, SHARE_LIMIT } from './analytics-keys';

/**
 * The Metrics tab's devices share: distinct users per device type (desktop, mobile, tablet). The server sorts by value.
 */
export const DEVICES_QUERY = graphql(`
  query Devices($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int, $filters: AnalyticsFilters) {
    devices(projectId: $projectId, from: $from, to: $to, limit: $limit, filters: $filters) { key value }
  }
`);

export async function getDevices(
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<DevicesQuery['devices']> {
  const data = await graphqlRequest(DEVICES_QUERY, { variables: { ...range, limit: SHARE_LIMIT }, signal });
  return data.devices;
}

export function devicesQueryOptions(range: AnalyticsRange) {
  return queryOptions({
    queryKey: analyticsKeys.of('devices', range),
    queryFn: ({ signal }) => getDevices(range, signal),
  });
}

export function useDevices(range: AnalyticsRange) {
  return useQuery(devicesQueryOptions(range));
}
