import { AlertFiringListSchema } from '@polyflow/contracts/alert-rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const ruleFiringsQueryKey = (projectId: string, ruleId: string) =>
  ['alert-rules', projectId, ruleId, 'firings'] as const;

export function getRuleFirings(projectId: string, ruleId: string) {
  return apiRequest(
    `/projects/${encodeURIComponent(projectId)}/alert-rules/${encodeURIComponent(ruleId)}/firings`,
    { auth: true, schema: AlertFiringListSchema },
  );
}

export function useRuleFirings(projectId: string, ruleId: string) {
  return useQuery(
    queryOptions({
      queryKey: ruleFiringsQueryKey(projectId, ruleId),
      queryFn: () => getRuleFirings(projectId, ruleId),
    }),
  );
}
