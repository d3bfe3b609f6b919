import { type Project, ProjectSchema } from '@polyflow/contracts/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { storeProjectAnswer } from '../../../lib/projects-cache';
import { membersQueryKey } from './get-members';

interface Transfer {
  projectId: string;
  userId: string;
}

/** To an admin of the project; the caller (the owner) becomes an admin. */
export function transferOwnership({ projectId, userId }: Transfer): Promise<Project> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/transfer`, {
    method: 'POST',
    body: { userId },
    auth: true,
    schema: ProjectSchema,
  });
}

export function useTransferOwnership() {
  const queryClient = useQueryClient();
  return useMutation<Project, ApiError, Transfer>({
    mutationFn: transferOwnership,
    onSuccess: (project) => {
      storeProjectAnswer(queryClient, project);
      void queryClient.invalidateQueries({ queryKey: membersQueryKey(project.id) });
    },
  });
}
