/**
 * The console's one date format, one address format and one percent format, for every screen (Analytics,
 * Acquisition, Incident Tracking, the project switcher). Dates and times are the current project's time
 * zone (docs/timezone.md), like its periods and the server's day buckets, and say which: the console shell
 * sets it (`setDisplayTimeZone`) before a project's screens render.
 */
import { DEFAULT_TIME_ZONE, isTimeZone, localDate } from '@polyflow/contracts/time-zone';

let displayZone: string = DEFAULT_TIME_ZONE;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone every date of the console is written in: the current project's (UTC without one). */
export function setDisplayTimeZone(zone: string | null | undefined): void {
  displayZone = zone && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}
export const displayTimeZone = (): string => displayZone;

const OPTIONS = {
  dateTime: {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  },
  date: { day: 'numeric', month: 'short', year: 'numeric' },
  dayMonth: { day: 'numeric', month: 'short' },
  dayMinute: {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  },
  time: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  minute: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  dayHeading: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
  zoneName: { timeZoneName: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

function formatIn(kind: keyof typeof OPTIONS, value: Date | number, zone = displayZone): string {
  const key = `${kind} ${zone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { ...OPTIONS[kind], timeZone: zone });
    formatters.set(key, formatter);
  }
  return formatter.format(value);
}

const isValid = (value: Date) => !Number.isNaN(value.getTime());

/** The zone's short name at that instant: "UTC", "CET" / "CEST", "GMT-5", "IST". */
export function zoneAbbreviation(iso: string | number = Date.now()): string {
  if (displayZone === DEFAULT_TIME_ZONE) return 'UTC';
  const value = new Date(iso);
  const part = isValid(value)
    ? new Intl.DateTimeFormat('en-GB', { ...OPTIONS.zoneName, timeZone: displayZone })
        .formatToParts(value)
        .find((candidate) => candidate.type === 'timeZoneName')
    : undefined;
  return part?.value ?? displayZone;
}

/** "4 Mar 2025, 14:03:27 UTC" (or "…, 15:03:27 CET" in Europe/Berlin). */
export function formatDateTime(iso: string): string {
  const value = new Date(iso);
  return isValid(value) ? `${formatIn('dateTime', value)} ${zoneAbbreviation(iso)}` : iso;
}

/** "4 Mar 2025" (the project's local day, or `zone`'s). */
export function formatDate(iso: string | number, zone = displayZone): string {
  const value = new Date(iso);
  return isValid(value) ? formatIn('date', value, zone) : String(iso);
}

/** "4 Mar" (an axis tick's day). */
export const formatDayMonth = (iso: string | number): string => formatIn('dayMonth', new Date(iso));
/** "4 Mar 2025, 14:00" (a bucket's edge in a tooltip). */
export const formatDayMinute = (iso: string | number): string => formatIn('dayMinute', new Date(iso));
/** "14:03:27". */
export const formatTimeOfDay = (iso: string | number): string => formatIn('time', new Date(iso));
/** "14:03". */
export const formatHourMinute = (iso: string | number): string => formatIn('minute', new Date(iso));
/** "Tuesday, 4 March 2025". */
export const formatDayHeading = (iso: string | number): string => formatIn('dayHeading', new Date(iso));
/** The local day of an instant, "2025-03-04": the key rows are grouped under, what a date input holds. */
export const localDayOf = (iso: string | number): string => localDate(new Date(iso).getTime(), displayZone);

/**
 * A release's name as the console shows and speaks it (the Source maps card, the audit log). One with spaces at
 * its ends, other blanks or invisible and direction characters (U+200B, U+202E) is quoted with those escaped
 * (`"\u200b"`), and an empty one is `""`, so a blank name still names its row, and none passes for another
 * release (`"1.0 "` beside `1.0`).
 */
export function shownRelease(release: string): string {
  const unclear = /[^\S ]|\p{Cf}/u;
  if (release !== '' && release === release.trim() && !unclear.test(release)) return release;
  const escaped = [...release].map((char) =>
    unclear.test(char) ? `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}` : char,
  );
  return `"${escaped.join('')}"`;
}

/** "0x1234…abcd": `0x` and 4 characters, an ellipsis, the last 4; addresses and hashes alike. */
export function shortenAddress(value: string): string {
  return value.length <= 12 ? value : `${value.slice(0, 6)}…${value.slice(-4)}`;
}

const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/**
 * A 0..1 fraction as a percentage: 0.027 → "2.7%", 0.0002 → "< 0.1%" (never "0%" for something that
 * happened); null (nothing to divide by) → "—".
 */
export function formatPercent(value: number | null): string {
  if (value === null) return '—';
  if (value > 0 && value < 0.001) return '< 0.1%';
  return percent.format(value);
}

/** "1 incident", "2,574 incidents": a count with its noun, singular for exactly one. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}

const regionNames =
  typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;

/** "US" → "United States"; null → "Unknown": every screen names countries, not codes. */
export function countryName(code: string | null): string {
  if (!code) return 'Unknown';
  try {
    return regionNames?.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** Sizes as the server's refusals say them (one definition: @polyflow/contracts/bytes). */
export { formatBytes } from '@polyflow/contracts/bytes';
