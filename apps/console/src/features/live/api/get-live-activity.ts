import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { LiveActivityQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';

/** The tiles come from the event store, which the loader fills every few seconds: asking more often is waste. */
export const LIVE_ACTIVITY_REFRESH_MS = 5_000;

export const LIVE_ACTIVITY_QUERY = graphql(`
  query LiveActivity($projectId: ID!) {
    liveActivity(projectId: $projectId) {
      from
      to
      activeUsers
      activeWallets
      eventsPerMinute {
        from
        to
        value
      }
    }
  }
`);

export type LiveActivity = LiveActivityQuery['liveActivity'];

export async function getLiveActivity(projectId: string, signal?: AbortSignal): Promise<LiveActivity> {
  const data = await graphqlRequest(LIVE_ACTIVITY_QUERY, {
    variables: { projectId },
    signal,
  });
  return data.liveActivity;
}

export function liveActivityQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: ['projects', projectId, 'live', 'activity'],
    queryFn: ({ signal }) => getLiveActivity(projectId, signal),
    refetchInterval: LIVE_ACTIVITY_REFRESH_MS,
  });
}

export function useLiveActivity(projectId: string) {
  return useQuery(liveActivityQueryOptions(projectId));
}
