import { type Project, ProjectListSchema } from '@polyflow/contracts/projects';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectsQueryKey } from '../../../lib/projects-cache';

export async function getProjects(): Promise<Project[]> {
  const { projects } = await apiRequest('/projects', { auth: true, schema: ProjectListSchema });
  return projects;
}

export function projectsQueryOptions() {
  return queryOptions({ queryKey: projectsQueryKey, queryFn: getProjects });
}

export function useProjects() {
  return useQuery(projectsQueryOptions());
}
