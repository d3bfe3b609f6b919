import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { writeTokensQueryKey } from './get-write-tokens';

type Variables = { projectId: string; tokenId: string };

export function revokeWriteToken({ projectId, tokenId }: Variables): Promise<void> {
  return apiRequest(
    `/projects/${encodeURIComponent(projectId)}/write-tokens/${encodeURIComponent(tokenId)}`,
    {
      method: 'DELETE',
      auth: true,
    },
  );
}

export function useRevokeWriteToken() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, Variables>({
    mutationFn: revokeWriteToken,
    onSuccess: (_answer, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: writeTokensQueryKey(projectId) }),
  });
}
