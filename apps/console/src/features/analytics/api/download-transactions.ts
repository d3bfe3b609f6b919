import { AnalyticsFilterKeys } from '@polyflow/contracts/analytics';
import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiDownload } from '../../../lib/api-client';
import { type HistoryFilter, historyFilterArgs } from '../lib/history-filter';
import type { AnalyticsRange } from './analytics-keys';

/**
 * The history's CSV, written by the server: every transaction of the range that the search and filters
 * keep, not only the pages loaded (docs/analytics.md#the-history-as-csv); with the screen's filters (the
 * range's), one parameter per value as the screen's URL holds them.
 */
export async function downloadTransactions(range: AnalyticsRange, filter: HistoryFilter): Promise<Blob> {
  const query = new URLSearchParams({ from: range.from, to: range.to, ...historyFilterArgs(filter) });
  for (const key of AnalyticsFilterKeys)
    for (const value of range.filters?.[key] ?? []) query.append(key, String(value));
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
