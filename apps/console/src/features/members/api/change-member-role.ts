import { type GrantableRole, type Member, MemberSchema } from '@polyflow/contracts/members';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { membersQueryKey } from './get-members';

interface RoleChange {
  projectId: string;
  userId: string;
  role: GrantableRole;
}

export function changeMemberRole({ projectId, userId, role }: RoleChange): Promise<Member> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/members/${encodeURIComponent(userId)}`, {
    method: 'PATCH',
    body: { role },
    auth: true,
    schema: MemberSchema,
  });
}

export function useChangeMemberRole() {
  const queryClient = useQueryClient();
  return useMutation<Member, ApiError, RoleChange>({
    mutationFn: changeMemberRole,
    onSuccess: (_, { projectId }) => queryClient.invalidateQueries({ queryKey: membersQueryKey(projectId) }),
  });
}
