import { useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { CustomEventsQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';
import { customEventKeys, type EventsRange } from './custom-event-keys';

export const CUSTOM_EVENTS_QUERY = graphql(`
  query CustomEvents($projectId: ID!, $from: DateTime, $to: DateTime, $previous: Boolean) {
    customEvents(projectId: $projectId, from: $from, to: $to, previous: $previous) { name events users }
  }
`);

export type CustomEventCount = CustomEventsQuery['customEvents'][number];

export async function getCustomEvents(
  range: EventsRange,
  previous: boolean,
  signal?: AbortSignal,
): Promise<CustomEventCount[]> {
  const { customEvents } = await graphqlRequest(CUSTOM_EVENTS_QUERY, {
    variables: { ...range, previous },
    signal,
  });
  return customEvents;
}

/** Custom events by name over the period, or over the period before it (`previous`). */
export function useCustomEvents(range: EventsRange, previous = false) {
  return useQuery({
    queryKey: customEventKeys.of('counts', range.projectId, { ...range, previous }),
    queryFn: ({ signal }) => getCustomEvents(range, previous, signal),
  });
}
