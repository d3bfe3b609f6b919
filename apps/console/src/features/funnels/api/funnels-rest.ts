import { type CreateFunnel, type Funnel, FunnelListSchema, FunnelSchema } from '@polyflow/contracts/funnels';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';

/** The project's saved funnels (REST /projects/:id/funnels, docs/funnels.md): list, save, change, delete. */
export const funnelsQueryKey = (projectId: string) => ['projects', projectId, 'funnels'] as const;
const path = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/funnels`;

export function funnelsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: funnelsQueryKey(projectId),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(path(projectId), {
          auth: true,
          schema: FunnelListSchema,
          ...(signal ? { signal } : {}),
        })
      ).funnels,
  });
}

export function useFunnels(projectId: string) {
  return useQuery(funnelsQueryOptions(projectId));
}

/** Saves a new funnel (`id` null) or replaces a saved one's name, steps and window. */
export function useSaveFunnel(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation<Funnel, ApiError, { id: string | null; funnel: CreateFunnel }>({
    mutationFn: ({ id, funnel }) =>
      id
        ? apiRequest(`${path(projectId)}/${encodeURIComponent(id)}`, {
            method: 'PATCH',
            auth: true,
            body: funnel,
            schema: FunnelSchema,
          })
        : apiRequest(path(projectId), { method: 'POST', auth: true, body: funnel, schema: FunnelSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['projects', projectId] }),
  });
}

export function useDeleteFunnel(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, string>({
    mutationFn: async (id) => {
      await apiRequest(`${path(projectId)}/${encodeURIComponent(id)}`, { method: 'DELETE', auth: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: funnelsQueryKey(projectId) }),
  });
}
