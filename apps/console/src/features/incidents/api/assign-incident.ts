import { useMutation, useQueryClient } from '@tanstack/react-query';
import { graphql } from '../../../gql/gql';
import type { AssignIncidentMutation } from '../../../gql/graphql';
import { graphqlRequest } from '../../../lib/graphql-client';

const ASSIGN_INCIDENT = graphql(`
  mutation AssignIncident($projectId: ID!, $id: ID!, $userId: ID) {
    assignIncident(projectId: $projectId, id: $id, userId: $userId) {
      id
      assignee { userId email assignedAt }
    }
  }
`);

export interface AssignIncidentInput {
  projectId: string;
  id: string;
  /** A current member's user id; null unassigns. */
  userId: string | null;
}

export async function assignIncident({
  projectId,
  id,
  userId,
}: AssignIncidentInput): Promise<AssignIncidentMutation['assignIncident']> {
  const { assignIncident: row } = await graphqlRequest(ASSIGN_INCIDENT, {
    variables: { projectId, id, userId },
  });
  return row;
}

/** Assign or unassign; the list and the detail of the project are asked again afterwards. */
export function useAssignIncident(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<AssignIncidentInput, 'projectId'>) => assignIncident({ projectId, ...input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['projects', projectId, 'incidents'] }),
  });
}
