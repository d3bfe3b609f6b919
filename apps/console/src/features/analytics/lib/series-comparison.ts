import type { CsvTable } from '../../../lib/csv';

/**
 * A series beside the previous period's (docs/analytics.md, "The previous period"): the server answers the
 * previous buckets from the previous period's start, so bucket i lines up with bucket i of the range and
 * draws on the same axis. A previous period cut at "now" has fewer buckets: the rest have no previous value.
 */
export interface Bucket {
  from: string;
  to: string;
  value: number | null;
}

export interface ComparedPoint extends Bucket {
  previousFrom: string | null;
  previousTo: string | null;
  previousValue: number | null;
}

export function alignPrevious(
  current: readonly Bucket[],
  previous: readonly Bucket[] | undefined,
): ComparedPoint[] {
  return current.map((bucket, index) => {
    const before = previous?.[index];
    return {
      ...bucket,
      previousFrom: before?.from ?? null,
      previousTo: before?.to ?? null,
      previousValue: before?.value ?? null,
    };
  });
}

/**
 * The chart as a file: one row per bucket, the value unformatted under `valueHeader`, and with the overlay
 * shown, the previous period's bucket and value beside it.
 */
export function seriesCsv(
  points: readonly ComparedPoint[],
  valueHeader: string,
  withPrevious: boolean,
): CsvTable {
  const header = ['bucket_from', 'bucket_to', valueHeader];
  if (!withPrevious) return { header, rows: points.map((p) => [p.from, p.to, p.value]) };
  return {
    header: [...header, 'previous_bucket_from', 'previous_bucket_to', `previous_${valueHeader}`],
    rows: points.map((p) => [p.from, p.to, p.value, p.previousFrom, p.previousTo, p.previousValue]),
  };
}
