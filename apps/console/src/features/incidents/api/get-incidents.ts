import {
  type IncidentList,
  IncidentListSchema,
  type IncidentStatus,
  type Severity,
} from '@polyflow/contracts/incidents';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/graphql-client';

export const INCIDENT_PAGE_SIZE = 25;

const INCIDENTS = /* GraphQL */ `
  query Incidents(
    $projectId: ID!
    $from: DateTime
    $to: DateTime
    $search: String
    $severities: [Severity!]
    $statuses: [IncidentStatus!]
    $first: Int
    $after: String
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
      }
      nextCursor
    }
  }
`;

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
}

export async function getIncidents(
  { projectId, from, to, search, severities, status, after }: IncidentsQueryInput,
  signal?: AbortSignal,
): Promise<IncidentList> {
  const { incidents } = await graphqlRequest(INCIDENTS, {
    variables: {
      projectId,
      from,
      to,
      search: search || null,
      severities: severities.length > 0 ? severities : null,
      statuses: [status],
      first: INCIDENT_PAGE_SIZE,
      after,
    },
    schema: z.object({ incidents: IncidentListSchema }),
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
