import { type Project, ProjectSchema } from '@polyflow/contracts/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { storeProjectAnswer } from '../../../lib/projects-cache';

type Variables = { projectId: string; timeZone: string };

/** The project's time zone (an IANA name): its days, weeks and dates (docs/timezone.md). */
export function setTimeZone({ projectId, timeZone }: Variables): Promise<Project> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}`, {
    method: 'PATCH',
    auth: true,
    body: { timeZone },
    schema: ProjectSchema,
  });
}

export function useSetTimeZone() {
  const queryClient = useQueryClient();
  return useMutation<Project, ApiError, Variables>({
    mutationFn: setTimeZone,
    // The cached list feeds the shell, which sets the zone every screen writes its dates in.
    onSuccess: (project) => storeProjectAnswer(queryClient, project),
  });
}
