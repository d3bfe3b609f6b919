import { type ReportSubscription, ReportSubscriptionSchema } from '@polyflow/contracts/reports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { reportSubscriptionsQueryKey } from './get-report-subscriptions';

interface Choice {
  projectId: string;
  weekly: boolean;
  monthly: boolean;
}

/** The caller's own reports for the project; any member, viewers included, chooses their own. */
export function updateMyReportSubscription({
  projectId,
  weekly,
  monthly,
}: Choice): Promise<ReportSubscription> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/report-subscriptions/me`, {
    method: 'PUT',
    body: { weekly, monthly },
    auth: true,
    schema: ReportSubscriptionSchema,
  });
}

export function useUpdateMyReportSubscription() {
  const queryClient = useQueryClient();
  return useMutation<ReportSubscription, ApiError, Choice>({
    mutationFn: updateMyReportSubscription,
    onSuccess: (_, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: reportSubscriptionsQueryKey(projectId) }),
  });
}
