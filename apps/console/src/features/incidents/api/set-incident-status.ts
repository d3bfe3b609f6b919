import { useMutation, useQueryClient } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { IncidentStatus, SetIncidentStatusMutation } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';

const SET_INCIDENT_STATUS = graphql(`
  mutation SetIncidentStatus($projectId: ID!, $id: ID!, $status: IncidentStatus!) {
    setIncidentStatus(projectId: $projectId, id: $id, status: $status) {
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
  }
`);

export interface SetIncidentStatusInput {
  projectId: string;
  id: string;
  /** `open` reopens a resolved or ignored incident. */
  status: IncidentStatus;
}

export async function setIncidentStatus({
  projectId,
  id,
  status,
}: SetIncidentStatusInput): Promise<SetIncidentStatusMutation['setIncidentStatus']> {
  const { setIncidentStatus: row } = await graphqlRequest(SET_INCIDENT_STATUS, {
    variables: { projectId, id, status },
  });
  return row;
}

/** Resolve, ignore or reopen; the list and the detail of the project are asked again afterwards. */
export function useSetIncidentStatus(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<SetIncidentStatusInput, 'projectId'>) =>
      setIncidentStatus({ projectId, ...input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['projects', projectId, 'incidents'] }),
  });
}
