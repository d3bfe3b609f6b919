import { type CreatedInvitation, CreatedInvitationSchema } from '@polyflow/contracts/members';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { membersQueryKey } from './get-members';

interface Resend {
  projectId: string;
  invitationId: string;
}

/** A new link for 7 more days; the one sent before stops working. */
export function resendInvitation({ projectId, invitationId }: Resend): Promise<CreatedInvitation> {
  return apiRequest(
    `/projects/${encodeURIComponent(projectId)}/invitations/${encodeURIComponent(invitationId)}/resend`,
    { method: 'POST', auth: true, schema: CreatedInvitationSchema },
  );
}

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation<CreatedInvitation, ApiError, Resend>({
    mutationFn: resendInvitation,
    onSuccess: (_, { projectId }) => queryClient.invalidateQueries({ queryKey: membersQueryKey(projectId) }),
  });
}
