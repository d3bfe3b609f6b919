import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { alertRulesQueryKey } from './get-alert-rules';

interface Removal {
  projectId: string;
  ruleId: string;
}

export function deleteAlertRule({ projectId, ruleId }: Removal): Promise<void> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/alert-rules/${encodeURIComponent(ruleId)}`, {
    method: 'DELETE',
    auth: true,
  });
}

export function useDeleteAlertRule() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, Removal>({
    mutationFn: deleteAlertRule,
    onSuccess: (_, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: alertRulesQueryKey(projectId) }),
  });
}
