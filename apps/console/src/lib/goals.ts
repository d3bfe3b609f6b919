import { type Goal, type GoalInput, GoalListSchema, GoalSchema } from '@polyflow/contracts/goals';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from './api-client';

/**
 * A project's goals (docs/goals.md), read by the Analytics screen's Goals card and the attribution table's
 * goal picker: one REST client and one cache key for the features that show them. A change also asks the
 * goals' figures again (their GraphQL keys start with the same prefix).
 */
export const goalsQueryKey = (projectId: string) => ['projects', projectId, 'goals'] as const;
const path = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/goals`;

export function goalsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: [...goalsQueryKey(projectId), 'list'],
    queryFn: async ({ signal }) =>
      (
        await apiRequest(path(projectId), {
          auth: true,
          schema: GoalListSchema,
          ...(signal ? { signal } : {}),
        })
      ).goals,
  });
}

export function useGoals(projectId: string) {
  return useQuery(goalsQueryOptions(projectId));
}

export function useCreateGoal(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation<Goal, ApiError, GoalInput>({
    mutationFn: (body) =>
      apiRequest(path(projectId), { method: 'POST', auth: true, body, schema: GoalSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: goalsQueryKey(projectId) }),
  });
}

/** Replaces a goal's definition (`PUT`, the same body and checks as adding one). */
export function useUpdateGoal(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation<Goal, ApiError, { id: string; input: GoalInput }>({
    mutationFn: ({ id, input }) =>
      apiRequest(`${path(projectId)}/${encodeURIComponent(id)}`, {
        method: 'PUT',
        auth: true,
        body: input,
        schema: GoalSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: goalsQueryKey(projectId) }),
  });
}

export function useDeleteGoal(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, string>({
    mutationFn: async (id) => {
      await apiRequest(`${path(projectId)}/${encodeURIComponent(id)}`, { method: 'DELETE', auth: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: goalsQueryKey(projectId) }),
  });
}

/** What a goal matches, in words: `signup where plan = pro`, `page /docs/**`. */
export function describeGoal(goal: Goal): string {
  if (goal.kind === 'path') return `Page ${goal.pathPattern ?? ''}`;
  const property =
    goal.propertyKey !== null ? ` where ${goal.propertyKey} = ${goal.propertyValue ?? ''}` : '';
  return `Event ${goal.eventName ?? ''}${property}`;
}
