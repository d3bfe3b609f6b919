import { type Project, ProjectSchema } from '@polyflow/contracts/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { storeProjectAnswer } from '../../../lib/projects-cache';

/** Joins the project of an invitation sent to the signed-in user's own address. */
export function acceptInvitation(token: string): Promise<Project> {
  return apiRequest('/invitations/accept', {
    method: 'POST',
    body: { token },
    auth: true,
    schema: ProjectSchema,
  });
}

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation<Project, ApiError, string>({
    mutationFn: acceptInvitation,
    onSuccess: (project) => storeProjectAnswer(queryClient, project),
  });
}
