import { useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { CustomEventBreakdownQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { customEventKeys, type EventsRange } from './custom-event-keys';

export const CUSTOM_EVENT_BREAKDOWN_QUERY = graphql(`
  query CustomEventBreakdown($projectId: ID!, $from: DateTime, $to: DateTime, $name: String!, $key: String!) {
    customEventBreakdown(projectId: $projectId, from: $from, to: $to, name: $name, key: $key, limit: 20) {
      value events users
    }
  }
`);

export type BreakdownRow = CustomEventBreakdownQuery['customEventBreakdown'][number];

export async function getCustomEventBreakdown(
  range: EventsRange,
  name: string,
  key: string,
  signal?: AbortSignal,
): Promise<BreakdownRow[]> {
  const { customEventBreakdown } = await graphqlRequest(CUSTOM_EVENT_BREAKDOWN_QUERY, {
    variables: { ...range, name, key },
    signal,
  });
  return customEventBreakdown;
}

/** One event by the values of one property; asks nothing until both are chosen. */
export function useCustomEventBreakdown(range: EventsRange, name: string | null, key: string) {
  return useQuery({
    queryKey: customEventKeys.of('breakdown', range.projectId, { ...range, name, key }),
    queryFn: ({ signal }) => getCustomEventBreakdown(range, name ?? '', key, signal),
    enabled: Boolean(name && key),
  });
}
