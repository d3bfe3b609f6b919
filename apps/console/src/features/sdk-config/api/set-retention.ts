import { type Project, ProjectSchema } from '@polyflow/contracts/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { storeProjectAnswer } from '../../../lib/projects-cache';

type Variables = { projectId: string; retentionDays: number | null };

/** How long the project's events are kept; null keeps them forever. */
export function setRetention({ projectId, retentionDays }: Variables): Promise<Project> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}`, {
    method: 'PATCH',
    auth: true,
    body: { retentionDays },
    schema: ProjectSchema,
  });
}

export function useSetRetention() {
  const queryClient = useQueryClient();
  return useMutation<Project, ApiError, Variables>({
    mutationFn: setRetention,
    onSuccess: (project) => storeProjectAnswer(queryClient, project),
  });
}
