import { MemberListSchema } from '@polyflow/contracts/members';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** The people an email channel can write to (the same list and cache key as the Members screen). */
export function getProjectMembers(projectId: string) {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/members`, {
    auth: true,
    schema: MemberListSchema,
  });
}

export function useProjectMembers(projectId: string) {
  return useQuery(
    queryOptions({ queryKey: ['members', projectId] as const, queryFn: () => getProjectMembers(projectId) }),
  );
}
