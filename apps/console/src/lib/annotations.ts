import {
  type Annotation,
  AnnotationListSchema,
  AnnotationSchema,
  type CreateAnnotation,
} from '@polyflow/contracts/annotations';
import { instantOfWallClock } from '@polyflow/contracts/time-zone';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from './api-client';
import { displayTimeZone } from './format';

/**
 * A project's annotations (docs/timezone.md, "Annotations"), read by every time chart and written on project settings:
 * one REST client and one cache key for the features that show them.
 */
export const annotationsQueryKey = (projectId: string) => ['projects', projectId, 'annotations'] as const;
const path = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/annotations`;

export function annotationsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: annotationsQueryKey(projectId),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(path(projectId), {
          auth: true,
          schema: AnnotationListSchema,
          ...(signal ? { signal } : {}),
        })
      ).annotations,
  });
}

export function useAnnotations(projectId: string) {
  return useQuery(annotationsQueryOptions(projectId));
}

export function useCreateAnnotation(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation<Annotation, ApiError, CreateAnnotation>({
    mutationFn: (body) =>
      apiRequest(path(projectId), { method: 'POST', auth: true, body, schema: AnnotationSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: annotationsQueryKey(projectId) }),
  });
}

export function useDeleteAnnotation(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, string>({
    mutationFn: async (id) => {
      await apiRequest(`${path(projectId)}/${encodeURIComponent(id)}`, { method: 'DELETE', auth: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: annotationsQueryKey(projectId) }),
  });
}

const DAY_MS = 86_400_000;
const dateNumber = (date: string) => Date.parse(`${date}T00:00:00Z`);

/**
 * The instants an annotation covers in the project's zone: from the local midnight starting its start
 * date to the one ending its end date (or its start date).
 */
export function annotationSpan(
  annotation: Annotation,
  zone = displayTimeZone(),
): { fromMs: number; toMs: number } {
  return {
    fromMs: instantOfWallClock(dateNumber(annotation.startDate), zone),
    toMs: instantOfWallClock(dateNumber(annotation.endDate ?? annotation.startDate) + DAY_MS, zone),
  };
}

/**
 * The annotations that overlap a chart's buckets, each with the index of the bucket it starts in (the first
 * bucket for one that started before the chart).
 */
export function annotationsOnBuckets(
  annotations: readonly Annotation[],
  buckets: readonly { from: string; to: string }[],
  zone = displayTimeZone(),
): { annotation: Annotation; index: number }[] {
  const first = buckets[0];
  const last = buckets.at(-1);
  if (!first || !last) return [];
  const chartFrom = Date.parse(first.from);
  const chartTo = Date.parse(last.to);
  const placed: { annotation: Annotation; index: number }[] = [];
  for (const annotation of annotations) {
    const span = annotationSpan(annotation, zone);
    if (span.fromMs >= chartTo || span.toMs <= chartFrom) continue;
    const at = Math.max(span.fromMs, chartFrom);
    const index = buckets.findIndex((bucket) => at >= Date.parse(bucket.from) && at < Date.parse(bucket.to));
    placed.push({ annotation, index: index === -1 ? 0 : index });
  }
  return placed;
}
