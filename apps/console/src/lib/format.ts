/**
 * The console's one date format, one address format and one percent format, for every screen (Analytics,
 * Acquisition, Incident Tracking, the project switcher). Times are UTC everywhere, like the periods and the
 * server's buckets, and say so.
 */

const dateTime = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
const date = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

const isValid = (value: Date) => !Number.isNaN(value.getTime());

/** "4 Mar 2025, 14:03:27 UTC". */
export function formatDateTime(iso: string): string {
  const value = new Date(iso);
  return isValid(value) ? `${dateTime.format(value)} UTC` : iso;
}

/** "4 Mar 2025" (the UTC day). */
export function formatDate(iso: string): string {
  const value = new Date(iso);
  return isValid(value) ? date.format(value) : iso;
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
