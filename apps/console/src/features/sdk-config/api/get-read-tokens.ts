import { type ReadToken, ReadTokenListSchema } from '@polyflow/contracts/projects';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const readTokensQueryKey = (projectId: string) => ['projects', projectId, 'read-tokens'] as const;

/** The project's read tokens, without their values (shown once, at creation). */
export async function getReadTokens(projectId: string, signal?: AbortSignal): Promise<ReadToken[]> {
  const { readTokens } = await apiRequest(`/projects/${encodeURIComponent(projectId)}/read-tokens`, {
    auth: true,
    schema: ReadTokenListSchema,
    ...(signal ? { signal } : {}),
  });
  return readTokens;
}

export function readTokensQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: readTokensQueryKey(projectId),
    queryFn: ({ signal }) => getReadTokens(projectId, signal),
  });
}

export function useReadTokens(projectId: string) {
  return useQuery(readTokensQueryOptions(projectId));
}
