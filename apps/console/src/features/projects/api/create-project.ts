import { type Project, ProjectSchema } from '@polyflow/contracts/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { storeProjectAnswer } from '../../../lib/projects-cache';

export function createProject(name: string): Promise<Project> {
  return apiRequest('/projects', { method: 'POST', body: { name }, auth: true, schema: ProjectSchema });
}

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation<Project, ApiError, string>({
    mutationFn: createProject,
    onSuccess: (project) => storeProjectAnswer(queryClient, project),
  });
}
