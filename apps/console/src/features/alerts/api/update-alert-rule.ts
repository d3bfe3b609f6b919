import { type AlertRule, AlertRuleSchema } from '@polyflow/contracts/alert-rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import type { RuleDraft } from './create-alert-rule';
import { alertRulesQueryKey } from './get-alert-rules';

/** Any of the changeable fields; the kind of a rule stays what it was created with. */
export type RuleChange = Partial<Omit<RuleDraft, 'kind'>> & { paused?: boolean };

interface Update {
  projectId: string;
  ruleId: string;
  change: RuleChange;
}

export function updateAlertRule({ projectId, ruleId, change }: Update): Promise<AlertRule> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/alert-rules/${encodeURIComponent(ruleId)}`, {
    method: 'PATCH',
    body: change,
    auth: true,
    schema: AlertRuleSchema,
  });
}

export function useUpdateAlertRule() {
  const queryClient = useQueryClient();
  return useMutation<AlertRule, ApiError, Update>({
    mutationFn: updateAlertRule,
    onSuccess: (_, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: alertRulesQueryKey(projectId) }),
  });
}
