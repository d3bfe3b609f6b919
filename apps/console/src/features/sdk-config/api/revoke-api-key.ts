import { type Project, ProjectSchema } from '@polyflow/contracts/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { storeProjectAnswer } from '../../../lib/projects-cache';

export function revokeApiKey(projectId: string): Promise<Project> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/api-key`, {
    method: 'DELETE',
    auth: true,
    schema: ProjectSchema,
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation<Project, ApiError, string>({
    mutationFn: revokeApiKey,
    onSuccess: (project) => storeProjectAnswer(queryClient, project),
  });
}
