/** A span of client time in ms, [fromMs, toMs). */
export type Span = { fromMs: number; toMs: number };
/** A span and the rows counted in it when it was cut. */
export type CountedSpan = Span & { rows: number };

/** Buckets of the histogram that cuts the range into windows: a bucket is a window's smallest part. */
export const HISTOGRAM_BUCKETS = 2_048;

/**
 * The engine's count of the project's rows per bucket of `ts`: bucket `b` is
 * [fromMs + b · widthMs, fromMs + (b + 1) · widthMs), only buckets holding rows, in order.
 */
export type TimeHistogram = (span: Span, widthMs: number) => Promise<[bucket: number, rows: number][]>;

/**
 * [fromMs, toMs) cut into spans of about `windowRows` rows each, from a count per bucket of `ts` (a scan
 * of one narrow column). A bucket with more rows than a window is counted again in finer buckets, down
 * to one millisecond; the spans tile the range, so a row loaded meanwhile falls in one of them. Both
 * engines' exports read a window per query (docs/decisions/028, 077).
 */
export async function cutWindows(
  histogram: TimeHistogram,
  span: Span,
  windowRows: number,
): Promise<CountedSpan[]> {
  const widthMs = Math.max(1, Math.ceil((span.toMs - span.fromMs) / HISTOGRAM_BUCKETS));
  const windows: CountedSpan[] = [];
  let windowFrom = span.fromMs;
  let windowCount = 0;
  for (const [bucket, count] of await histogram(span, widthMs)) {
    const bucketFrom = span.fromMs + bucket * widthMs;
    const bucketTo = Math.min(bucketFrom + widthMs, span.toMs);
    if (windowCount > 0 && windowCount + count > windowRows) {
      windows.push({ fromMs: windowFrom, toMs: bucketFrom, rows: windowCount });
      windowFrom = bucketFrom;
      windowCount = 0;
    }
    if (count > windowRows && widthMs > 1) {
      if (windowFrom < bucketFrom) windows.push({ fromMs: windowFrom, toMs: bucketFrom, rows: windowCount });
      windows.push(...(await cutWindows(histogram, { fromMs: bucketFrom, toMs: bucketTo }, windowRows)));
      windowFrom = bucketTo;
      windowCount = 0;
    } else {
      windowCount += count;
    }
  }
  if (windowFrom < span.toMs) windows.push({ fromMs: windowFrom, toMs: span.toMs, rows: windowCount });
  return windows;
}
