import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiDownload } from '../../../lib/api-client';

/** The whole log (a year at most) as the server writes it in CSV, saved as a file. */
export async function downloadAuditLog(projectId: string): Promise<void> {
  const { blob } = await apiDownload(`/projects/${encodeURIComponent(projectId)}/audit-log?format=csv`);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `polyflow-audit-log-${projectId}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function useDownloadAuditLog() {
  return useMutation<void, ApiError, string>({ mutationFn: downloadAuditLog });
}
