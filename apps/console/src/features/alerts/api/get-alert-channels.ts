import { AlertChannelListSchema } from '@polyflow/contracts/alert-channels';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const alertChannelsQueryKey = (projectId: string) => ['alert-channels', projectId] as const;

export function getAlertChannels(projectId: string) {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/alert-channels`, {
    auth: true,
    schema: AlertChannelListSchema,
  });
}

export function useAlertChannels(projectId: string) {
  return useQuery(
    queryOptions({ queryKey: alertChannelsQueryKey(projectId), queryFn: () => getAlertChannels(projectId) }),
  );
}
