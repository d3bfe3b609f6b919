import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { forgetProject } from '../../../lib/projects-cache';

/** Irreversible: the project's API key stops working at once. */
export function deleteProject(projectId: string): Promise<void> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}`, { method: 'DELETE', auth: true });
}

export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, string>({
    mutationFn: deleteProject,
    onSuccess: (_, projectId) => forgetProject(queryClient, projectId),
  });
}
