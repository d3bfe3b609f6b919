import { type Project, ProjectSchema } from '@polyflow/contracts/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { storeProjectAnswer } from '../../../lib/projects-cache';

interface DomainChange {
  projectId: string;
  domain: string;
}

export function removeDomain({ projectId, domain }: DomainChange): Promise<Project> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/domains/delete`, {
    method: 'PATCH',
    body: { domain },
    auth: true,
    schema: ProjectSchema,
  });
}

export function useRemoveDomain() {
  const queryClient = useQueryClient();
  return useMutation<Project, ApiError, DomainChange>({
    mutationFn: removeDomain,
    onSuccess: (project) => storeProjectAnswer(queryClient, project),
  });
}
