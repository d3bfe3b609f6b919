/** Axis helpers shared by the lazy chart modules (kept out of them so they are testable without recharts). */

/** At most `max` tick values, evenly spread and always including the first and last (spec §9: 4 ticks). */
export function pickTicks<T>(values: readonly T[], max = 4): T[] {
  if (values.length <= max) return [...values];
  const step = (values.length - 1) / (max - 1);
  const picked: T[] = [];
  for (let index = 0; index < max; index++) {
    const value = values[Math.round(index * step)];
    if (value !== undefined) picked.push(value);
  }
  return picked;
}

const hourLabel = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
const dayLabel = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const fullLabel = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** A bucket's start on the x axis: the hour for hourly buckets, the day otherwise (UTC). */
export function bucketTickLabel(iso: string, granularity: string): string {
  return granularity === '1h' ? hourLabel.format(new Date(iso)) : dayLabel.format(new Date(iso));
}

/** A bucket in a tooltip: "4 Mar 2025, 00:00 – 5 Mar 2025, 00:00 UTC". */
export function bucketRangeLabel(from: string, to: string): string {
  return `${fullLabel.format(new Date(from))} – ${fullLabel.format(new Date(to))} UTC`;
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
/** Y axis numbers: 1200 → "1.2K". */
export const compactNumber = (value: number): string => compact.format(value);

/** Indigo palette, dark to light (neighbouring slices stay distinct); "Unknown" slices are slate. */
export const INDIGO_PALETTE = [
  '#3730a3',
  '#4f46e5',
  '#6366f1',
  '#818cf8',
  '#a5b4fc',
  '#c7d2fe',
  '#1e1b4b',
  '#8b5cf6',
];
export const UNKNOWN_COLOR = '#cbd5e1';
export const GRID_COLOR = '#e2e8f0';
export const AXIS_COLOR = '#64748b';
