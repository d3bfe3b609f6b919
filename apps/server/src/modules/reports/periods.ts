import type { ReportKind } from '@polyflow/contracts/reports';

/**
 * The period a report covers (docs/reports.md): a weekly report the past Monday to Sunday, a monthly one
 * the past calendar month, both from midnight to midnight in the report's time zone (UTC unless the
 * project says otherwise). Half-open ranges in UTC milliseconds, like every dashboard range.
 */
export type ReportPeriod = { kind: ReportKind; fromMs: number; toMs: number };

type WallDate = { year: number; month: number; day: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // Throws a RangeError for a zone the runtime does not know: callers check zones with isTimeZone.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of an instant in a zone. */
function wallTime(ms: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(new Date(ms))
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
  return parts;
}

/** How far the zone's wall clock is ahead of UTC at `ms`. */
function offsetAt(ms: number, timeZone: string): number {
  const wall = wallTime(ms, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant the zone's day `date` begins (its midnight; the first instant of the day where a shift skips it). */
export function zonedMidnight({ year, month, day }: WallDate, timeZone: string): number {
  const guess = Date.UTC(year, month - 1, day);
  const first = guess - offsetAt(guess, timeZone);
  const second = guess - offsetAt(first, timeZone);
  return Math.min(first, second);
}

/** The zone's calendar date at `ms`, moved by `days` (any number, across months and years). */
export function dateOf(ms: number, timeZone: string, days = 0): WallDate & { weekday: number } {
  const wall = wallTime(ms, timeZone);
  const moved = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return {
    year: moved.getUTCFullYear(),
    month: moved.getUTCMonth() + 1,
    day: moved.getUTCDate(),
    // 0 Monday … 6 Sunday.
    weekday: (moved.getUTCDay() + 6) % 7,
  };
}

/** The last whole period of `kind` that ended at or before `nowMs`, in `timeZone`. */
export function lastCompletedPeriod(kind: ReportKind, nowMs: number, timeZone = 'UTC'): ReportPeriod {
  const today = dateOf(nowMs, timeZone);
  if (kind === 'weekly') {
    const thisMonday = dateOf(nowMs, timeZone, -today.weekday);
    const lastMonday = dateOf(nowMs, timeZone, -today.weekday - 7);
    return { kind, fromMs: zonedMidnight(lastMonday, timeZone), toMs: zonedMidnight(thisMonday, timeZone) };
  }
  const firstOfThisMonth = { year: today.year, month: today.month, day: 1 };
  const firstOfLastMonth =
    today.month === 1
      ? { year: today.year - 1, month: 12, day: 1 }
      : { ...firstOfThisMonth, month: today.month - 1 };
  return {
    kind,
    fromMs: zonedMidnight(firstOfLastMonth, timeZone),
    toMs: zonedMidnight(firstOfThisMonth, timeZone),
  };
}

/** "Week of 2026-11-16" or "October 2026": how the email names its period. */
export function periodTitle(period: ReportPeriod, timeZone = 'UTC'): string {
  const from = dateOf(period.fromMs, timeZone);
  if (period.kind === 'monthly') {
    const name = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(from.year, from.month - 1, 1)),
    );
    return `${name} ${from.year}`;
  }
  const last = dateOf(period.toMs, timeZone, -1);
  return `${isoDate(from)} to ${isoDate(last)}`;
}

const pad = (value: number) => String(value).padStart(2, '0');
export const isoDate = (date: WallDate) => `${date.year}-${pad(date.month)}-${pad(date.day)}`;
