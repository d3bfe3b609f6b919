import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { IncidentQuery } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';

const INCIDENT = graphql(`
  query Incident($projectId: ID!, $id: ID!, $from: DateTime, $to: DateTime) {
    incident(projectId: $projectId, id: $id, from: $from, to: $to) {
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
      from
      to
      fingerprint
      lifetime {
        firstSeen
        lastSeen
        occurrences
        affectedUsers
        affectedWallets
        activeDays
        failedTransactions
        activeUsers
        reach
      }
      latest {
        eventId
        time
        userId
        sessionId
        wallet
        walletState { gasBalanceWei gasBalance symbol nonce chainId network walletProvider }
        message
        stack
        code
        method
        path
        browser
        os
        country
        trail { time type description }
      }
    }
  }
`);

export type IncidentDetail = NonNullable<IncidentQuery['incident']>;
export type IncidentOccurrence = NonNullable<IncidentDetail['latest']>;

export interface IncidentQueryInput {
  projectId: string;
  id: string;
  /** The list's range when opened from it (so the latest occurrence is the row's); all time otherwise. */
  from: string | null;
  to: string | null;
}

/** null: the project has no such incident (in the range). */
export async function getIncident(
  { projectId, id, from, to }: IncidentQueryInput,
  signal?: AbortSignal,
): Promise<IncidentDetail | null> {
  const { incident } = await graphqlRequest(INCIDENT, {
    variables: { projectId, id, from, to },
    signal,
  });
  return incident;
}

export function incidentQueryOptions(input: IncidentQueryInput) {
  return queryOptions({
    queryKey: ['projects', input.projectId, 'incidents', 'detail', input] as const,
    queryFn: ({ signal }) => getIncident(input, signal),
  });
}

export function useIncident(input: IncidentQueryInput) {
  return useQuery(incidentQueryOptions(input));
}
