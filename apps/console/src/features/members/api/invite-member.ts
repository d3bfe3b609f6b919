import {
  type CreatedInvitation,
  CreatedInvitationSchema,
  type GrantableRole,
} from '@polyflow/contracts/members';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { membersQueryKey } from './get-members';

interface Invite {
  projectId: string;
  email: string;
  role: GrantableRole;
}

/** Emails a link (7 days, single use) to the address; it joins with the role once accepted. */
export function inviteMember({ projectId, email, role }: Invite): Promise<CreatedInvitation> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/invitations`, {
    method: 'POST',
    body: { email, role },
    auth: true,
    schema: CreatedInvitationSchema,
  });
}

export function useInviteMember() {
  const queryClient = useQueryClient();
  return useMutation<CreatedInvitation, ApiError, Invite>({
    mutationFn: inviteMember,
    onSuccess: (_, { projectId }) => queryClient.invalidateQueries({ queryKey: membersQueryKey(projectId) }),
  });
}
