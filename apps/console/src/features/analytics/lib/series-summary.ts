import { bucketTickLabel } from './chart-axis';
import type { Bucket } from './series-comparison';

interface SummaryOptions {
  granularity: string;
  /** `sum`: counts that add up (failed transactions); `range`: averages that do not (gas price). */
  kind: 'sum' | 'range';
  format: (value: number) => string;
}

/**
 * A chart's values in one sentence, for its accessible name (WCAG 1.1.1): "412 in all, most on 13 Nov
 * (31)" for counts, "12 gwei to 40 gwei, highest on 13 Nov (40 gwei)" for averages. The table under the
 * chart holds every bucket.
 */
export function seriesSummary(buckets: readonly Bucket[], { granularity, kind, format }: SummaryOptions) {
  const known = buckets.filter((bucket): bucket is Bucket & { value: number } => bucket.value !== null);
  if (known.length === 0) return 'no values in this period';
  const top = known.reduce((best, bucket) => (bucket.value > best.value ? bucket : best));
  const when = `${granularity === '1h' ? 'at' : 'on'} ${bucketTickLabel(top.from, granularity)}`;
  if (kind === 'sum') {
    const total = known.reduce((sum, bucket) => sum + bucket.value, 0);
    return total === 0
      ? `${format(0)} in all`
      : `${format(total)} in all, most ${when} (${format(top.value)})`;
  }
  const lowest = Math.min(...known.map((bucket) => bucket.value));
  return `${format(lowest)} to ${format(top.value)}, highest ${when} (${format(top.value)})`;
}
