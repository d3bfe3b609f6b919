import { AUDIT_PAGE_DEFAULT, type AuditLog, AuditLogSchema } from '@polyflow/contracts/members';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export function getAuditLog(projectId: string, before: string | null): Promise<AuditLog> {
  const query = new URLSearchParams({ limit: String(AUDIT_PAGE_DEFAULT) });
  if (before) query.set('before', before);
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/audit-log?${query}`, {
    auth: true,
    schema: AuditLogSchema,
  });
}

/** Newest first, a page at a time ("Load older"). */
export function useAuditLog(projectId: string) {
  return useInfiniteQuery({
    queryKey: ['audit-log', projectId],
    queryFn: ({ pageParam }) => getAuditLog(projectId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextBefore,
    staleTime: 0,
  });
}
