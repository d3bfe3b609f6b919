import { type SourcemapReleaseList, SourcemapReleaseListSchema } from '@polyflow/contracts/sourcemaps';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const sourcemapReleasesQueryKey = (projectId: string) =>
  ['projects', projectId, 'sourcemap-releases'] as const;

/** The project's releases with source maps (never the maps), and the owner's account usage against its limit. */
export function getSourcemapReleases(projectId: string, signal?: AbortSignal): Promise<SourcemapReleaseList> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/releases/sourcemaps`, {
    auth: true,
    schema: SourcemapReleaseListSchema,
    ...(signal ? { signal } : {}),
  });
}

export function sourcemapReleasesQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: sourcemapReleasesQueryKey(projectId),
    queryFn: ({ signal }) => getSourcemapReleases(projectId, signal),
  });
}

export function useSourcemapReleases(projectId: string) {
  return useQuery(sourcemapReleasesQueryOptions(projectId));
}
