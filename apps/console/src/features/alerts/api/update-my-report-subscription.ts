import {
  type ReportSubscription,
  type ReportSubscriptionList,
  ReportSubscriptionSchema,
} from '@polyflow/contracts/reports';
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
    onSuccess: (saved, { projectId }) => {
      // The saved row replaces the member's at once, so that the toggle does not spring back meanwhile.
      queryClient.setQueryData<ReportSubscriptionList>(reportSubscriptionsQueryKey(projectId), (list) =>
        list
          ? {
              reportSubscriptions: list.reportSubscriptions.map((row) =>
                row.userId === saved.userId ? saved : row,
              ),
            }
          : list,
      );
      return queryClient.invalidateQueries({ queryKey: reportSubscriptionsQueryKey(projectId) });
    },
  });
}
