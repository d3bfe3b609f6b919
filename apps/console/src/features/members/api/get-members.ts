import { type MemberList, MemberListSchema } from '@polyflow/contracts/members';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const membersQueryKey = (projectId: string) => ['members', projectId] as const;

export function getMembers(projectId: string): Promise<MemberList> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/members`, {
    auth: true,
    schema: MemberListSchema,
  });
}

export function useMembers(projectId: string) {
  return useQuery(
    queryOptions({ queryKey: membersQueryKey(projectId), queryFn: () => getMembers(projectId) }),
  );
}
