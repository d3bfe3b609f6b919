import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { forgetProject } from '../../../lib/projects-cache';
import { membersQueryKey } from './get-members';

interface Removal {
  projectId: string;
  userId: string;
  /** The caller themselves: leaving, after which the project is no longer theirs to see. */
  isLeaving: boolean;
}

export function removeMember({ projectId, userId }: Removal): Promise<void> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/members/${encodeURIComponent(userId)}`, {
    method: 'DELETE',
    auth: true,
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, Removal>({
    mutationFn: removeMember,
    onSuccess: (_, { projectId, isLeaving }) => {
      if (isLeaving) forgetProject(queryClient, projectId);
      else void queryClient.invalidateQueries({ queryKey: membersQueryKey(projectId) });
    },
  });
}
