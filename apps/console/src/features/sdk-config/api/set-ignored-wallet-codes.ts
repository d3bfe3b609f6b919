import { type Project, ProjectSchema } from '@polyflow/contracts/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { storeProjectAnswer } from '../../../lib/projects-cache';

type Variables = { projectId: string; codes: number[] };

/** The wallet error codes whose errors are not incidents (from the next event on). */
export function setIgnoredWalletCodes({ projectId, codes }: Variables): Promise<Project> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/ignored-wallet-codes`, {
    method: 'PUT',
    auth: true,
    body: { codes },
    schema: ProjectSchema,
  });
}

export function useSetIgnoredWalletCodes() {
  const queryClient = useQueryClient();
  return useMutation<Project, ApiError, Variables>({
    mutationFn: setIgnoredWalletCodes,
    onSuccess: (project) => storeProjectAnswer(queryClient, project),
  });
}
