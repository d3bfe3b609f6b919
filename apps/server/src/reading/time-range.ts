import {
  DEFAULT_TIME_ZONE,
  instantOfWallClock,
  localDaysIn,
  startOfLocalDay,
  wallClockMs,
} from '@polyflow/contracts/time-zone';
import { formatGranularity, parseGranularity } from './granularity.ts';
import { InputError } from './input-error.ts';

/**
 * Ranges and buckets shared by every analytics query (and by the acquisition and incident queries).
 * A range is half-open, [from, to), in UTC milliseconds. Buckets start at `from` and step by the
 * granularity; the last one ends at `to` (it is shorter when the range is not a whole number of steps).
 */

export const DAY_MS = 86_400_000;
/** A 90-day range by minute is 129,600 buckets: refuse it with a clear message rather than truncate. */
export const MAX_BUCKETS = 5000;

export type TimeRange = { fromMs: number; toMs: number };
/**
 * `zone`: buckets of whole days in a project's time zone other than UTC step by the local wall clock
 * from `fromWallMs` (the range's start on that clock), so a 23- or 25-hour day is one bucket
 * (docs/timezone.md, ADR 065). Without it buckets step by elapsed milliseconds from `fromMs`.
 */
export type BucketedRange = TimeRange & {
  bucketMs: number;
  bucketCount: number;
  zone?: { name: string; fromWallMs: number };
};
export type Bucket<T> = { from: string; to: string; value: T };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const MIN_TIME_MS = Date.UTC(1970, 0, 1);
const MAX_TIME_MS = Date.UTC(10000, 0, 1);

/** ISO 8601 with an explicit zone (`2024-03-01T00:00:00Z`, `…+02:00`) or a date (`2024-03-01` = UTC midnight). */
export function parseInstant(input: string, field: string): number {
  const text = input.trim();
  const fail = () =>
    new InputError(
      `Invalid ${field} "${text.slice(0, 40)}": use an ISO 8601 date-time with a zone, e.g. 2024-03-01T00:00:00Z, or a date, e.g. 2024-03-01.`,
    );
  if (!DATE_ONLY.test(text) && !DATE_TIME.test(text)) throw fail();
  // Date.parse reads a date-only string as UTC midnight and honours the zone of a date-time.
  const ms = Date.parse(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text);
  if (!Number.isFinite(ms) || ms < MIN_TIME_MS || ms >= MAX_TIME_MS) throw fail();
  // Date.parse rolls 2024-02-30 over to March: a date that does not exist is an error, not a guess.
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  const check = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 0));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() + 1 !== month || check.getUTCDate() !== day) {
    throw fail();
  }
  return ms;
}

export const startOfUtcDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

export type RangeInput = { from?: string | null; to?: string | null };
/** A range a comparable query takes: with `previous`, it answers for the period before it (`previousPeriod`). */
export type ComparableRangeInput = RangeInput & { previous?: boolean | null };
/** The project's first and last event times, used only when the caller leaves an end open. */
export type EventSpan = { firstMs: number; lastMs: number } | null;

const clampToReadable = (ms: number): number => Math.min(MAX_TIME_MS, Math.max(MIN_TIME_MS, ms));

/**
 * The caller's range with open ends closed: `from` defaults to the start of the UTC day of the project's
 * first event, `to` to just after its last event or now, whichever is later ("all time"). Open ends stay
 * within what a caller could name (1970 to the year 10000, `parseInstant`), whatever times a project
 * stored before ingestion bounded client times (docs/data-access-and-privacy.md): a range is always
 * one that dates, buckets and the previous period can be made of.
 */
export function resolveRange(
  input: RangeInput,
  span: EventSpan,
  nowMs: number,
  zone: string = DEFAULT_TIME_ZONE,
): TimeRange {
  const explicitFrom = input.from ? parseInstant(input.from, 'from') : undefined;
  const explicitTo = input.to ? parseInstant(input.to, 'to') : undefined;
  if (explicitFrom !== undefined && explicitTo !== undefined && explicitFrom >= explicitTo) {
    throw new InputError(`Invalid range: from (${input.from}) must be before to (${input.to}).`);
  }
  const toMs = explicitTo ?? clampToReadable(Math.max(nowMs, span ? span.lastMs + 1 : nowMs));
  const firstMs = Math.min(span?.firstMs ?? toMs, toMs);
  let fromMs =
    explicitFrom ??
    clampToReadable(zone === DEFAULT_TIME_ZONE ? startOfUtcDay(firstMs) : startOfLocalDay(firstMs, zone));
  if (fromMs >= toMs) fromMs = toMs - DAY_MS;
  return { fromMs, toMs };
}

/** Whether resolving needs the project's event span (an open end). */
export const needsSpan = (input: RangeInput): boolean => !input.from || !input.to;

/**
 * Adds the bucket width: the parsed granularity, or the whole range as one bucket. In a zone other than
 * UTC, a granularity of whole days steps by the local calendar (`zone`); shorter ones by elapsed time.
 */
export function bucketRange(
  range: TimeRange,
  granularity?: string | null,
  zone: string = DEFAULT_TIME_ZONE,
): BucketedRange {
  const length = range.toMs - range.fromMs;
  if (!granularity) return { ...range, bucketMs: length, bucketCount: 1 };
  const parsed = parseGranularity(granularity);
  if (!parsed.ok) throw new InputError(parsed.message);
  const calendar = zone !== DEFAULT_TIME_ZONE && parsed.ms % DAY_MS === 0;
  const fromWallMs = calendar ? wallClockMs(range.fromMs, zone) : range.fromMs;
  const toWallMs = calendar ? wallClockMs(range.toMs, zone) : range.toMs;
  const bucketCount = Math.max(1, Math.ceil((toWallMs - fromWallMs) / parsed.ms));
  if (bucketCount > MAX_BUCKETS) {
    throw new InputError(
      `This range at a granularity of ${formatGranularity(parsed.ms)} makes ${bucketCount} buckets; the limit is ${MAX_BUCKETS}. Choose a coarser granularity or a shorter range.`,
    );
  }
  return calendar
    ? { ...range, bucketMs: parsed.ms, bucketCount, zone: { name: zone, fromWallMs } }
    : { ...range, bucketMs: parsed.ms, bucketCount };
}

/** Where bucket `index` starts (UTC ms): on the local wall clock for a zoned range, else by elapsed time. */
const bucketStart = (range: BucketedRange, index: number): number =>
  range.zone
    ? Math.max(
        range.fromMs,
        instantOfWallClock(range.zone.fromWallMs + index * range.bucketMs, range.zone.name),
      )
    : range.fromMs + index * range.bucketMs;

/** Every bucket of the range, in order, each holding the value found for its index or the fill value. */
export function fillBuckets<T>(range: BucketedRange, values: ReadonlyMap<number, T>, fill: T): Bucket<T>[] {
  const buckets: Bucket<T>[] = [];
  for (let index = 0; index < range.bucketCount; index++) {
    const fromMs = bucketStart(range, index);
    const toMs = Math.min(bucketStart(range, index + 1), range.toMs);
    buckets.push({
      from: new Date(fromMs).toISOString(),
      to: new Date(toMs).toISOString(),
      value: values.get(index) ?? fill,
    });
  }
  return buckets;
}

/**
 * The period of equal length just before the range, for trends. When the range runs past `nowMs`, only its
 * elapsed part has data, so the previous period is cut the same way: [from − length, now − length).
 */
export function previousPeriod(range: TimeRange, nowMs: number = Number.POSITIVE_INFINITY): TimeRange {
  const length = range.toMs - range.fromMs;
  const elapsedTo = Math.max(range.fromMs, Math.min(range.toMs, nowMs));
  return { fromMs: range.fromMs - length, toMs: elapsedTo - length };
}

/**
 * The range a comparable query answers (docs/analytics.md, "The previous period"): the caller's range, or
 * with `previous` the period before it, cut like with like when the range runs past now. Both come from
 * one reading of the clock, so the cut and the range agree.
 */
export function comparedRange(range: TimeRange, isPrevious: boolean, nowMs: number): TimeRange {
  return isPrevious ? previousPeriod(range, nowMs) : range;
}

/** UTC days the range touches (a partial day counts as one): the divisor of per-day averages. */
export const utcDaysIn = (range: TimeRange): number =>
  Math.max(1, Math.ceil((range.toMs - startOfUtcDay(range.fromMs)) / DAY_MS));

/**
 * Days of the zone the range touches (a partial day counts as one; a 23- or 25-hour day is one): the
 * divisor of per-day averages (docs/analytics.md). In UTC, `utcDaysIn`.
 */
export const daysIn = (range: TimeRange, zone: string = DEFAULT_TIME_ZONE): number =>
  zone === DEFAULT_TIME_ZONE
    ? utcDaysIn(range)
    : Math.max(1, localDaysIn(range.fromMs, Math.max(range.fromMs + 1, range.toMs), zone));

/**
 * A run of a zone's local days from `startMs` (a local midnight), the first of them day `index` of the
 * range: `regular` when each of its days is 24 hours long (a time's day is `index` + whole days elapsed
 * since `startMs`), else a single 23- or 25-hour day (every time in it is day `index`).
 */
export type LocalDayRun = { startMs: number; index: number; regular: boolean };

/**
 * Beyond this many local days (about three years) `localDayRuns` answers null: the days are then told
 * by the engine's own zone data (a longer range, such as all time over stored times from 1970 to 9999,
 * would make the server walk and the SQL hold one branch per change of every year).
 */
export const MAX_LOCAL_DAY_RUN_DAYS = 1_100;

/**
 * The local days a range touches, numbered from 0 (the day holding `fromMs`), as few runs as the zone's
 * changes allow: one for a range without a daylight-saving change, two more per change. The event
 * store turns them into one arithmetic expression per engine, so both number a time's local day alike
 * and without a time zone library of their own (docs/timezone.md).
 */
export function localDayRuns(range: TimeRange, zone: string): LocalDayRun[] | null {
  if (daysIn(range, zone) > MAX_LOCAL_DAY_RUN_DAYS) return null;
  const runs: LocalDayRun[] = [];
  let startMs = startOfLocalDay(range.fromMs, zone);
  let wallMs = Math.floor(wallClockMs(startMs, zone) / DAY_MS) * DAY_MS;
  for (let index = 0; startMs < range.toMs || index === 0; index++) {
    const nextMs = instantOfWallClock(wallMs + DAY_MS, zone);
    const regular = nextMs - startMs === DAY_MS;
    const last = runs.at(-1);
    if (!(regular && last?.regular)) runs.push({ startMs, index, regular });
    startMs = nextMs;
    wallMs += DAY_MS;
  }
  return runs;
}

/**
 * A range cut at UTC midnights: the whole days inside it (`days`, [from, to) at midnights, possibly empty)
 * and the pieces of partly covered days before and after them (each within one day, possibly empty).
 * Per-day figures read whole days from a per-day table and only the pieces from the events.
 */
export type UtcDayParts = { before: TimeRange; days: TimeRange; after: TimeRange };

export function utcDayParts(range: TimeRange): UtcDayParts {
  const firstMidnight = Math.ceil(range.fromMs / DAY_MS) * DAY_MS;
  const lastMidnight = startOfUtcDay(range.toMs);
  if (firstMidnight > lastMidnight) {
    // Within one day: no whole day, one piece.
    const empty = { fromMs: range.toMs, toMs: range.toMs };
    return { before: range, days: empty, after: empty };
  }
  return {
    before: { fromMs: range.fromMs, toMs: firstMidnight },
    days: { fromMs: firstMidnight, toMs: lastMidnight },
    after: { fromMs: lastMidnight, toMs: range.toMs },
  };
}
