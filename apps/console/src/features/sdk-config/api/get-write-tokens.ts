import { type WriteToken, WriteTokenListSchema } from '@polyflow/contracts/sourcemaps';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const writeTokensQueryKey = (projectId: string) => ['projects', projectId, 'write-tokens'] as const;

/** The project's write tokens, without their values (shown once, at creation). */
export async function getWriteTokens(projectId: string, signal?: AbortSignal): Promise<WriteToken[]> {
  const { writeTokens } = await apiRequest(`/projects/${encodeURIComponent(projectId)}/write-tokens`, {
    auth: true,
    schema: WriteTokenListSchema,
    ...(signal ? { signal } : {}),
  });
  return writeTokens;
}

export function writeTokensQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: writeTokensQueryKey(projectId),
    queryFn: ({ signal }) => getWriteTokens(projectId, signal),
  });
}

export function useWriteTokens(projectId: string) {
  return useQuery(writeTokensQueryOptions(projectId));
}
