import { AlertPreviewSchema, type AlertRuleKind } from '@polyflow/contracts/alert-rules';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export interface PreviewInput {
  kind: AlertRuleKind;
  params: Record<string, number | string>;
  cooldownMinutes: number;
}

/** What the rule would have fired over the last 7 days, cooldown applied; it changes nothing. */
export function previewAlertRule(projectId: string, input: PreviewInput, signal?: AbortSignal) {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/alert-rules/preview`, {
    method: 'POST',
    body: input,
    auth: true,
    schema: AlertPreviewSchema,
    ...(signal ? { signal } : {}),
  });
}

/** `input` null (parameters not valid yet) asks nothing; the previous answer stays while the next loads. */
export function useAlertRulePreview(projectId: string, input: PreviewInput | null) {
  return useQuery(
    queryOptions({
      queryKey: ['alert-rules', projectId, 'preview', input] as const,
      queryFn: ({ signal }) => previewAlertRule(projectId, input as PreviewInput, signal),
      enabled: input !== null,
      placeholderData: keepPreviousData,
      staleTime: 60_000,
      retry: false,
    }),
  );
}
