import type { BucketedRange, TimeRange } from '../../../reading/time-range.ts';
import type { Params } from './client.ts';

/**
 * SQL pieces every ClickHouse question shares. Values always travel as query parameters
 * ({project:String}, {from:Int64}, …); only these constant fragments are spliced into the text.
 */

/**
 * The events as the questions read them: FINAL merges away the copies of an event loaded twice (a retried
 * batch, a replayed segment) that background merges have not removed yet, so nothing is counted twice.
 */
export const EVENTS = 'events FINAL';

export const FROM = "fromUnixTimestamp64Milli({from:Int64}, 'UTC')";
export const TO = "fromUnixTimestamp64Milli({to:Int64}, 'UTC')";
/** The project's events with `ts` in [from, to). */
export const IN_RANGE = `project_id = {project:String} AND ts >= ${FROM} AND ts < ${TO}`;

/** A time as epoch ms (Int64). */
export const ms = (expression: string) => `toUnixTimestamp64Milli(${expression})`;

/** Index of the bucket a time falls in: buckets start at {from} and last {bucket} ms. */
export const bucketOf = (expression: string) =>
  `toInt64(floor((${ms(expression)} - {from:Int64}) / {bucket:Int64}))`;

export const rangeParams = (projectId: string, range: TimeRange): Params => ({
  project: projectId,
  from: range.fromMs,
  to: range.toMs,
});

export const bucketParams = (projectId: string, range: BucketedRange): Params => ({
  ...rangeParams(projectId, range),
  bucket: range.bucketMs,
});

/** bucket index → value, from rows shaped `{bucket, …}`. */
export function bucketMap<R extends { bucket: number }, T>(rows: readonly R[], value: (row: R) => T) {
  return new Map(rows.map((row) => [row.bucket, value(row)] as const));
}
