import type { ReportKind } from '@polyflow/contracts/reports';
import { instantOfWallClock, wallClockMs } from '@polyflow/contracts/time-zone';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The period a report covers (docs/reports.md): a weekly report the past Monday to Sunday, a monthly one
 * the past calendar month, both from midnight to midnight in the report's time zone (UTC unless the
 * project says otherwise). Half-open ranges in UTC milliseconds, like every dashboard range.
 */
export type ReportPeriod = { kind: ReportKind; fromMs: number; toMs: number };

type WallDate = { year: number; month: number; day: number };

/**
 * The instant the zone's day `date` begins: its midnight, or where a change of the clocks skips midnight
 * (Cairo, Santiago) the first instant of the day. The shared zone arithmetic (`@polyflow/contracts/time-zone`)
 * decides it, as it decides every local day of the dashboards.
 */
export function zonedMidnight({ year, month, day }: WallDate, timeZone: string): number {
  return instantOfWallClock(Date.UTC(year, month - 1, day), timeZone);
}

/** The zone's calendar date at `ms`, moved by `days` (any number, across months and years). */
export function dateOf(ms: number, timeZone: string, days = 0): WallDate & { weekday: number } {
  const moved = new Date(Math.floor(wallClockMs(ms, timeZone) / DAY_MS) * DAY_MS + days * DAY_MS);
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
