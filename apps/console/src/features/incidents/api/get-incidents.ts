import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { IncidentStatus, IncidentsQuery, Severity } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';

export const INCIDENT_PAGE_SIZE = 25;

const INCIDENTS = graphql(`
  query Incidents(
    $projectId: ID!
    $from: DateTime
    $to: DateTime
    $search: String
    $severities: [Severity!]
    $statuses: [IncidentStatus!]
    $first: Int
    $after: String
    $assignee: String
  ) {
    incidents(
      projectId: $projectId
      from: $from
      to: $to
      search: $search
      severities: $severities
      statuses: $statuses
      first: $first
      after: $after
      assignee: $assignee
    ) {
      from
      to
      totalIncidents
      byStatus { open resolved ignored }
      transactionFailRate
      bySeverity { low mid high severe }
      matching
      rows {
        id
        type
        title
        severity
        firstSeen
        lastSeen
        occurrences
        affectedUsers
        affectedWallets
        activeDays
        failedTransactions
        wallet
        code
        method
        status
        isRegression
        statusChangedAt
        assignee { userId email assignedAt }
      }
      nextCursor
    }
  }
`);

export type IncidentList = IncidentsQuery['incidents'];
export type IncidentRow = IncidentList['rows'][number];

export interface IncidentsQueryInput {
  projectId: string;
  from: string;
  to: string;
  /** Trimmed; empty means no search. */
  search: string;
  severities: readonly Severity[];
  status: IncidentStatus;
  /** The cursor of the page; null for the first one. */
  after: string | null;
  /** A member's user id, `me`, `none` (unassigned), or null: anyone. */
  assignee: string | null;
}

export async function getIncidents(
  { projectId, from, to, search, severities, status, after, assignee }: IncidentsQueryInput,
  signal?: AbortSignal,
): Promise<IncidentList> {
  const { incidents } = await graphqlRequest(INCIDENTS, {
    variables: {
      projectId,
      from,
      to,
      search: search || null,
      severities: severities.length > 0 ? [...severities] : null,
      statuses: [status],
      first: INCIDENT_PAGE_SIZE,
      after,
      assignee,
    },
    signal,
  });
  return incidents;
}

export function incidentsQueryOptions(input: IncidentsQueryInput) {
  return queryOptions({
    queryKey: ['projects', input.projectId, 'incidents', 'list', input] as const,
    queryFn: ({ signal }) => getIncidents(input, signal),
    // The summary and the table stay while a search or a page loads.
    placeholderData: keepPreviousData,
  });
}

export function useIncidents(input: IncidentsQueryInput) {
  return useQuery(incidentsQueryOptions(input));
}
