import { TZDate } from '@date-fns/tz';
import { z } from 'zod';

/**
 * A project's time zone (docs/timezone.md): an IANA name the runtime knows, `UTC` by default. Days, weeks,
 * "Today" and the dates shown follow it; stored events keep UTC. The same helpers run in the server and
 * the console, so a local day is one pair of UTC instants everywhere (a 23- or 25-hour day included).
 */

export const DEFAULT_TIME_ZONE = 'UTC';

/**
 * ICU (Node, Chromium) still lists some zones under their former IANA names; the list shows today's.
 * Both spellings are accepted (they are links in the IANA database, known to both engines).
 */
const RENAMED: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Europe/Kiev': 'Europe/Kyiv',
  'America/Godthab': 'America/Nuuk',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'Pacific/Enderbury': 'Pacific/Kanton',
};

let known: ReadonlySet<string> | undefined;

/** Every zone a project can choose: UTC, then the runtime's IANA names (Intl.supportedValuesOf), sorted. */
export function timeZoneNames(): readonly string[] {
  const names = Intl.supportedValuesOf('timeZone')
    .map((name) => RENAMED[name] ?? name)
    .filter((name) => name !== DEFAULT_TIME_ZONE);
  return [DEFAULT_TIME_ZONE, ...new Set(names.sort())];
}

/** A zone of the list, or a former name of one of them (Asia/Calcutta for Asia/Kolkata). */
export function isTimeZone(name: string): boolean {
  known ??= new Set([...timeZoneNames(), ...Object.keys(RENAMED)]);
  return known.has(name);
}

export const TimeZoneSchema = z
  .string()
  .max(64)
  .refine(isTimeZone, { message: 'must be an IANA time zone name such as Europe/Berlin, or UTC' });

const DAY_MS = 86_400_000;

/** The wall-clock time of an instant in the zone, as if that wall clock were UTC (ms). */
export function wallClockMs(instantMs: number, zone: string): number {
  const local = new TZDate(instantMs, zone);
  return Date.UTC(
    local.getFullYear(),
    local.getMonth(),
    local.getDate(),
    local.getHours(),
    local.getMinutes(),
    local.getSeconds(),
    local.getMilliseconds(),
  );
}

/**
 * The instant a wall-clock time (given as if it were UTC) happens in the zone. A time skipped by a
 * daylight-saving change is read after the change (02:30 on a spring-forward night → 03:30).
 */
export function instantOfWallClock(wallMs: number, zone: string): number {
  const wall = new Date(wallMs);
  return new TZDate(
    wall.getUTCFullYear(),
    wall.getUTCMonth(),
    wall.getUTCDate(),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
    wall.getUTCMilliseconds(),
    zone,
  ).getTime();
}

/** The instant the local day holding `instantMs` starts, plus `days` local days (each 23, 24 or 25 hours). */
export function startOfLocalDay(instantMs: number, zone: string, days = 0): number {
  const wall = wallClockMs(instantMs, zone);
  return instantOfWallClock(Math.floor(wall / DAY_MS) * DAY_MS + days * DAY_MS, zone);
}

/** The instant the local week (Monday to Sunday) holding `instantMs` starts, plus `weeks` weeks. */
export function startOfLocalWeek(instantMs: number, zone: string, weeks = 0): number {
  const wallDay = Math.floor(wallClockMs(instantMs, zone) / DAY_MS);
  // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
  const monday = wallDay - ((wallDay + 3) % 7);
  return instantOfWallClock((monday + weeks * 7) * DAY_MS, zone);
}

/** The local calendar date of an instant, `YYYY-MM-DD`. */
export function localDate(instantMs: number, zone: string): string {
  return new Date(wallClockMs(instantMs, zone)).toISOString().slice(0, 10);
}

/** How many local days start in [fromMs, toMs) or hold fromMs: a 23- and a 25-hour day are one day each. */
export function localDaysIn(fromMs: number, toMs: number, zone: string): number {
  const first = Math.floor(wallClockMs(fromMs, zone) / DAY_MS);
  const last = Math.floor(wallClockMs(Math.max(fromMs, toMs - 1), zone) / DAY_MS);
  return last - first + 1;
}
