import { type Member, type MemberList, MemberListSchema } from '@polyflow/contracts/members';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** The project's members and pending invitations (`GET /projects/:id/members`; every member reads it). */
export function getProjectMembers(projectId: string): Promise<MemberList> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/members`, {
    auth: true,
    schema: MemberListSchema,
  });
}

const selectMembers = (list: MemberList): Member[] => list.members;

/** The current members: whom an incident can be assigned to. */
export function useAssignableMembers(projectId: string) {
  return useQuery(
    queryOptions({
      // The members screen's key and answer: a member removed there refreshes this list too.
      queryKey: ['members', projectId] as const,
      queryFn: () => getProjectMembers(projectId),
      select: selectMembers,
    }),
  );
}
