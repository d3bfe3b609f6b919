import { type IntegrationStatus, IntegrationStatusSchema } from '@polyflow/contracts/integration';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** Events are counted from `since` (the server's default: the last 24 hours). */
export function getIntegrationStatus(
  projectId: string,
  since?: Date,
  signal?: AbortSignal,
): Promise<IntegrationStatus> {
  const query = since ? `?since=${encodeURIComponent(since.toISOString())}` : '';
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/integration${query}`, {
    auth: true,
    schema: IntegrationStatusSchema,
    ...(signal ? { signal } : {}),
  });
}

export function integrationStatusQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: ['projects', projectId, 'integration'] as const,
    queryFn: ({ signal }) => getIntegrationStatus(projectId, undefined, signal),
  });
}

/** The status before any test: what has arrived recently, shown above the Start test button. */
export function useIntegrationStatus(projectId: string) {
  return useQuery(integrationStatusQueryOptions(projectId));
}
