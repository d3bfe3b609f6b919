import { type CreatedReadToken, CreatedReadTokenSchema } from '@polyflow/contracts/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { readTokensQueryKey } from './get-read-tokens';

type Variables = { projectId: string; name: string };

/** The answer holds the token itself: the only time the server ever shows it. */
export function createReadToken({ projectId, name }: Variables): Promise<CreatedReadToken> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/read-tokens`, {
    method: 'POST',
    auth: true,
    body: { name },
    schema: CreatedReadTokenSchema,
  });
}

export function useCreateReadToken() {
  const queryClient = useQueryClient();
  return useMutation<CreatedReadToken, ApiError, Variables>({
    mutationFn: createReadToken,
    onSuccess: (_token, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: readTokensQueryKey(projectId) }),
  });
}
