import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiDownload } from '../../../lib/api-client';
import { type HistoryFilter, historyFilterArgs } from '../lib/history-filter';
import type { AnalyticsRange } from './analytics-keys';

/**
 * The history's CSV, written by the server: every transaction of the range that the search and filters
 * keep, not only the pages loaded (docs/analytics.md#the-history-as-csv).
 */
export async function downloadTransactions(range: AnalyticsRange, filter: HistoryFilter): Promise<Blob> {
  const query = new URLSearchParams({ from: range.from, to: range.to, ...historyFilterArgs(filter) });
  const { blob } = await apiDownload(
    `/projects/${encodeURIComponent(range.projectId)}/transactions.csv?${query}`,
  );
  return blob;
}

export function useDownloadTransactions() {
  return useMutation<Blob, ApiError, { range: AnalyticsRange; filter: HistoryFilter }>({
    mutationFn: ({ range, filter }) => downloadTransactions(range, filter),
  });
}
