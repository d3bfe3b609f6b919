import { SentTestNoticeSchema } from '@polyflow/contracts/alert-channels';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { channelDeliveriesQueryKey } from './get-channel-deliveries';

interface Test {
  projectId: string;
  channelId: string;
}

/** Queues a "test" notice to the channel (202); its delivery shows in the channel's log. */
export function testAlertChannel({ projectId, channelId }: Test): Promise<{ noticeId: string }> {
  return apiRequest(
    `/projects/${encodeURIComponent(projectId)}/alert-channels/${encodeURIComponent(channelId)}/test`,
    { method: 'POST', auth: true, schema: SentTestNoticeSchema },
  );
}

export function useTestAlertChannel() {
  const queryClient = useQueryClient();
  return useMutation<{ noticeId: string }, ApiError, Test>({
    mutationFn: testAlertChannel,
    onSuccess: (_, { projectId, channelId }) =>
      queryClient.invalidateQueries({ queryKey: channelDeliveriesQueryKey(projectId, channelId) }),
  });
}
