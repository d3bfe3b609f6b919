import {
  type AlertChannelType,
  type CreatedAlertChannel,
  CreatedAlertChannelSchema,
} from '@polyflow/contracts/alert-channels';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { alertChannelsQueryKey } from './get-alert-channels';

export interface ChannelDraft {
  type: AlertChannelType;
  name: string;
  url?: string;
  memberIds?: string[];
}

interface Creation {
  projectId: string;
  channel: ChannelDraft;
}

/** A webhook's answer carries its signing secret: the only time the server shows it. */
export function createAlertChannel({ projectId, channel }: Creation): Promise<CreatedAlertChannel> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/alert-channels`, {
    method: 'POST',
    body: channel,
    auth: true,
    schema: CreatedAlertChannelSchema,
  });
}

export function useCreateAlertChannel() {
  const queryClient = useQueryClient();
  return useMutation<CreatedAlertChannel, ApiError, Creation>({
    mutationFn: createAlertChannel,
    onSuccess: (_, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: alertChannelsQueryKey(projectId) }),
  });
}
