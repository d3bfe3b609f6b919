import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { membersQueryKey } from './get-members';

interface Revoke {
  projectId: string;
  invitationId: string;
}

/** The emailed link stops working at once. */
export function revokeInvitation({ projectId, invitationId }: Revoke): Promise<void> {
  return apiRequest(
    `/projects/${encodeURIComponent(projectId)}/invitations/${encodeURIComponent(invitationId)}`,
    { method: 'DELETE', auth: true },
  );
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, Revoke>({
    mutationFn: revokeInvitation,
    onSuccess: (_, { projectId }) => queryClient.invalidateQueries({ queryKey: membersQueryKey(projectId) }),
  });
}
