import type { Project } from '@polyflow/contracts/projects';
import type { QueryClient } from '@tanstack/react-query';
import { readCurrentProject, writeCurrentProject } from './storage';

/** Every feature that changes a project refreshes the one cached list, so the shell and screens agree. */
export const projectsQueryKey = ['projects'] as const;

/**
 * Puts a project answer from the server into the cached list and, when it is the current project,
 * into PF_CURRENT_PROJECT (spec §4: the current project is refreshed after each key and domain change).
 */
export function storeProjectAnswer(queryClient: QueryClient, project: Project): void {
  queryClient.setQueryData<Project[]>(projectsQueryKey, (projects = []) => {
    const index = projects.findIndex((candidate) => candidate.id === project.id);
    if (index === -1) return [...projects, project];
    return projects.map((candidate) => (candidate.id === project.id ? project : candidate));
  });
  if (readCurrentProject()?.id === project.id) writeCurrentProject(project);
}

export function forgetProject(queryClient: QueryClient, projectId: string): void {
  queryClient.setQueryData<Project[]>(projectsQueryKey, (projects = []) =>
    projects.filter((project) => project.id !== projectId),
  );
  if (readCurrentProject()?.id === projectId) writeCurrentProject(null);
}
