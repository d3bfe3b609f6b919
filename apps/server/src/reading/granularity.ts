/**
 * Bucket widths as the original Polyflow wrote them: `1d`, `7d`, `1h 30m`, `1d 2h 3m 5s`.
 * Units are weeks, days, hours, minutes and seconds; months are not durations (28–31 days) and are not accepted.
 */

const UNIT_MS = { w: 7 * 86_400_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 } as const;
type Unit = keyof typeof UNIT_MS;
const UNIT_ORDER: readonly Unit[] = ['w', 'd', 'h', 'm', 's'];

/** The smallest bucket: anything finer is noise for a dashboard and explodes the bucket count. */
export const MIN_GRANULARITY_MS = 1000;
/** Longer than any sensible range: 10 years. */
export const MAX_GRANULARITY_MS = 3650 * 86_400_000;

export type GranularityResult = { ok: true; ms: number } | { ok: false; message: string };

const PART = /^(\d{1,6})(w|d|h|m|s)$/;

/** Parses a duration string into milliseconds; each unit at most once, largest first. */
export function parseGranularity(input: string): GranularityResult {
  const text = input.trim().toLowerCase();
  const invalid = (why: string): GranularityResult => ({
    ok: false,
    message: `Invalid granularity "${input.slice(0, 40)}": ${why}. Use a duration such as 1d, 7d, 1h 30m or 1d 2h 3m 5s.`,
  });
  if (!text) return invalid('it is empty');
  const parts = text.split(/\s+/);
  if (parts.length > UNIT_ORDER.length) return invalid('too many parts');
  let ms = 0;
  let lastUnitIndex = -1;
  for (const part of parts) {
    const match = PART.exec(part);
    if (!match) return invalid(`"${part.slice(0, 20)}" is not a number followed by w, d, h, m or s`);
    const unit = match[2] as Unit;
    const unitIndex = UNIT_ORDER.indexOf(unit);
    if (unitIndex <= lastUnitIndex) return invalid('units must each appear once, largest first');
    lastUnitIndex = unitIndex;
    ms += Number(match[1]) * UNIT_MS[unit];
  }
  if (ms < MIN_GRANULARITY_MS) return invalid('it must be at least 1s');
  if (ms > MAX_GRANULARITY_MS) return invalid('it must be at most 3650d');
  return { ok: true, ms };
}

/** The canonical text of a duration (`90000000` → `1d 1h`), for messages and echoing back. */
export function formatGranularity(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const unit of UNIT_ORDER) {
    const count = Math.floor(rest / UNIT_MS[unit]);
    if (count > 0) {
      parts.push(`${count}${unit}`);
      rest -= count * UNIT_MS[unit];
    }
  }
  return parts.join(' ') || '0s';
}
