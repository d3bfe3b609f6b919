import type { ChartStatus } from '../../../components/ui/chart-card';

interface QueryState {
  status: ChartStatus;
  error: Error | null;
  refetch: () => unknown;
}

/** The ChartCard props every chart derives from its query. */
export const stateOf = (query: QueryState) => ({
  status: query.status,
  errorText: query.error ? `Could not load this chart: ${query.error.message}` : undefined,
  onRetry: () => void query.refetch(),
});

export const hasValues = (values: Array<{ value: number | null }> | undefined) =>
  (values ?? []).some((point) => point.value !== null && point.value > 0);
