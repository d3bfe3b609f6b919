import { useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { CustomEventSeriesQuery } from '../../../gql/graphql';
import { displayTimeZone } from '../../../lib/format';
import { graphqlRequest } from '../../../lib/graphql-client';
import { customEventKeys, type EventsRange } from './custom-event-keys';

export const CUSTOM_EVENT_SERIES_QUERY = graphql(`
  query CustomEventSeries($projectId: ID!, $from: DateTime, $to: DateTime, $name: String!, $timeZone: String) {
    customEventSeries(projectId: $projectId, from: $from, to: $to, name: $name, timeZone: $timeZone) {
      day
      events
      users
    }
  }
`);

export type EventDay = CustomEventSeriesQuery['customEventSeries'][number];

export async function getCustomEventSeries(range: EventsRange, name: string, signal?: AbortSignal) {
  const { customEventSeries } = await graphqlRequest(CUSTOM_EVENT_SERIES_QUERY, {
    variables: { ...range, name, timeZone: displayTimeZone() },
    signal,
  });
  return customEventSeries;
}

/** One event per day of the period in the project's time zone; asks nothing until an event is chosen. */
export function useCustomEventSeries(range: EventsRange, name: string | null) {
  return useQuery({
    queryKey: customEventKeys.of('series', range.projectId, { ...range, name, timeZone: displayTimeZone() }),
    queryFn: ({ signal }) => getCustomEventSeries(range, name ?? '', signal),
    enabled: Boolean(name),
  });
}
