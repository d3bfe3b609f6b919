import { AlertRuleListSchema } from '@polyflow/contracts/alert-rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const alertRulesQueryKey = (projectId: string) => ['alert-rules', projectId] as const;

export function getAlertRules(projectId: string) {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/alert-rules`, {
    auth: true,
    schema: AlertRuleListSchema,
  });
}

export function useAlertRules(projectId: string) {
  return useQuery(
    queryOptions({ queryKey: alertRulesQueryKey(projectId), queryFn: () => getAlertRules(projectId) }),
  );
}
