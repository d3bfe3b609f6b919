import { type CreatedWriteToken, CreatedWriteTokenSchema } from '@polyflow/contracts/sourcemaps';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { writeTokensQueryKey } from './get-write-tokens';

type Variables = { projectId: string; name: string };

/** The answer holds the token itself: the only time the server ever shows it. */
export function createWriteToken({ projectId, name }: Variables): Promise<CreatedWriteToken> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/write-tokens`, {
    method: 'POST',
    auth: true,
    body: { name },
    schema: CreatedWriteTokenSchema,
  });
}

export function useCreateWriteToken() {
  const queryClient = useQueryClient();
  return useMutation<CreatedWriteToken, ApiError, Variables>({
    mutationFn: createWriteToken,
    onSuccess: (_token, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: writeTokensQueryKey(projectId) }),
  });
}
