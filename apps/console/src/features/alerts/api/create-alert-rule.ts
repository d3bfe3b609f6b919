import { type AlertRule, type AlertRuleKind, AlertRuleSchema } from '@polyflow/contracts/alert-rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { alertRulesQueryKey } from './get-alert-rules';

export interface RuleDraft {
  name: string;
  kind: AlertRuleKind;
  params: Record<string, number | string>;
  channelIds: string[];
  cooldownMinutes: number;
}

export function createAlertRule({
  projectId,
  rule,
}: {
  projectId: string;
  rule: RuleDraft;
}): Promise<AlertRule> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/alert-rules`, {
    method: 'POST',
    body: rule,
    auth: true,
    schema: AlertRuleSchema,
  });
}

export function useCreateAlertRule() {
  const queryClient = useQueryClient();
  return useMutation<AlertRule, ApiError, { projectId: string; rule: RuleDraft }>({
    mutationFn: createAlertRule,
    onSuccess: (_, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: alertRulesQueryKey(projectId) }),
  });
}
