import { type Project, ProjectSchema } from '@polyflow/contracts/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { storeProjectAnswer } from '../../../lib/projects-cache';

interface DomainChange {
  projectId: string;
  domain: string;
}

/** The server normalises the domain (lower case, no scheme or path); the answer shows the stored form. */
export function addDomain({ projectId, domain }: DomainChange): Promise<Project> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/domains/add`, {
    method: 'PATCH',
    body: { domain },
    auth: true,
    schema: ProjectSchema,
  });
}

export function useAddDomain() {
  const queryClient = useQueryClient();
  return useMutation<Project, ApiError, DomainChange>({
    mutationFn: addDomain,
    onSuccess: (project) => storeProjectAnswer(queryClient, project),
  });
}
