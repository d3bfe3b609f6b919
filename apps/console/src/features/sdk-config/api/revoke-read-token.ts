import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { readTokensQueryKey } from './get-read-tokens';

type Variables = { projectId: string; tokenId: string };

export function revokeReadToken({ projectId, tokenId }: Variables): Promise<void> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/read-tokens/${encodeURIComponent(tokenId)}`, {
    method: 'DELETE',
    auth: true,
  });
}

export function useRevokeReadToken() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, Variables>({
    mutationFn: revokeReadToken,
    onSuccess: (_answer, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: readTokensQueryKey(projectId) }),
  });
}
