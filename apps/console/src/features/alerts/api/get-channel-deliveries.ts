import { AlertDeliveryListSchema } from '@polyflow/contracts/alert-channels';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const channelDeliveriesQueryKey = (projectId: string, channelId: string) =>
  ['alert-channels', projectId, channelId, 'deliveries'] as const;

export function getChannelDeliveries(projectId: string, channelId: string) {
  return apiRequest(
    `/projects/${encodeURIComponent(projectId)}/alert-channels/${encodeURIComponent(channelId)}/deliveries`,
    { auth: true, schema: AlertDeliveryListSchema },
  );
}

/** Polled every 5 s while a delivery is pending, so that a test's outcome appears without a reload. */
export function useChannelDeliveries(projectId: string, channelId: string) {
  return useQuery(
    queryOptions({
      queryKey: channelDeliveriesQueryKey(projectId, channelId),
      queryFn: () => getChannelDeliveries(projectId, channelId),
      refetchInterval: (query) =>
        query.state.data?.deliveries.some((delivery) => delivery.state === 'pending') ? 5_000 : false,
    }),
  );
}
