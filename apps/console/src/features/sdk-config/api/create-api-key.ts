import { type Project, ProjectSchema } from '@polyflow/contracts/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { storeProjectAnswer } from '../../../lib/projects-cache';

/** Creates the key, or replaces it: the old key stops working at once. */
export function createApiKey(projectId: string): Promise<Project> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/api-key`, {
    method: 'POST',
    auth: true,
    schema: ProjectSchema,
  });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation<Project, ApiError, string>({
    mutationFn: createApiKey,
    onSuccess: (project) => storeProjectAnswer(queryClient, project),
  });
}
