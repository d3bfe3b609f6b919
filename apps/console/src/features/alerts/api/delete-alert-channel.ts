import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { alertChannelsQueryKey } from './get-alert-channels';
import { alertRulesQueryKey } from './get-alert-rules';

interface Removal {
  projectId: string;
  channelId: string;
}

export function deleteAlertChannel({ projectId, channelId }: Removal): Promise<void> {
  return apiRequest(
    `/projects/${encodeURIComponent(projectId)}/alert-channels/${encodeURIComponent(channelId)}`,
    { method: 'DELETE', auth: true },
  );
}

export function useDeleteAlertChannel() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, Removal>({
    mutationFn: deleteAlertChannel,
    // Rules that sent to the channel no longer list it.
    onSuccess: (_, { projectId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: alertChannelsQueryKey(projectId) }),
        queryClient.invalidateQueries({ queryKey: alertRulesQueryKey(projectId) }),
      ]),
  });
}
