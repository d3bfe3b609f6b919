import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';
import { sourcemapReleasesQueryKey } from './get-sourcemap-releases';

type Variables = { projectId: string; release: string };

/** Deletes one release's source maps on the server, files included (docs/source-maps.md). */
export function deleteSourcemapRelease({ projectId, release }: Variables): Promise<void> {
  return apiRequest(
    `/projects/${encodeURIComponent(projectId)}/releases/${encodeURIComponent(release)}/sourcemaps`,
    { method: 'DELETE', auth: true },
  );
}

export function useDeleteSourcemapRelease() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, Variables>({
    mutationFn: deleteSourcemapRelease,
    onSuccess: (_answer, { projectId }) =>
      queryClient.invalidateQueries({ queryKey: sourcemapReleasesQueryKey(projectId) }),
  });
}
