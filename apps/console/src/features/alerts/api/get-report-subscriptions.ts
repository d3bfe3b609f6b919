import { ReportSubscriptionListSchema } from '@polyflow/contracts/reports';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const reportSubscriptionsQueryKey = (projectId: string) =>
  ['report-subscriptions', projectId] as const;

/** Every member's weekly and monthly choice (not secret within the project). */
export function getReportSubscriptions(projectId: string) {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/report-subscriptions`, {
    auth: true,
    schema: ReportSubscriptionListSchema,
  });
}

export function useReportSubscriptions(projectId: string) {
  return useQuery(
    queryOptions({
      queryKey: reportSubscriptionsQueryKey(projectId),
      queryFn: () => getReportSubscriptions(projectId),
    }),
  );
}
