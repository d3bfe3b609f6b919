/** Axis helpers shared by the lazy chart modules (kept out of them so they are testable without recharts). */
import { formatDayMinute, formatDayMonth, formatHourMinute, zoneAbbreviation } from '../../../lib/format';

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

/** A bucket's start on the x axis: the hour for hourly buckets, the day otherwise (the project's zone). */
export function bucketTickLabel(iso: string, granularity: string): string {
  return granularity === '1h' ? formatHourMinute(iso) : formatDayMonth(iso);
}

/** A bucket in a tooltip: "4 Mar 2025, 00:00 – 5 Mar 2025, 00:00 UTC" (or "… CET"). */
export function bucketRangeLabel(from: string, to: string): string {
  return `${formatDayMinute(from)} – ${formatDayMinute(to)} ${zoneAbbreviation(from)}`;
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

/**
 * Ticks for a count axis from 0: whole numbers only, at most `max` of them (spec §9), ending at or just
 * above the largest value, so that one user reads as 0–1 and not as 0–3.
 */
export function countTicks(largest: number, max = 4): number[] {
  const top = Math.max(1, Math.ceil(largest));
  if (top < max) return Array.from({ length: top + 1 }, (_, index) => index);
  const rough = top / (max - 1);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step =
    [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= rough) ?? rough;
  const wholeStep = Math.max(1, Math.ceil(step));
  const count = Math.ceil(top / wholeStep);
  return Array.from({ length: count + 1 }, (_, index) => index * wholeStep);
}

/**
 * Indexes of values with no neighbour on either side (a lone day with receipts between days without):
 * a line through them has no length, so they are drawn as dots or the chart looks empty.
 */
export function isolatedIndexes(values: readonly (number | null)[]): Set<number> {
  const isolated = new Set<number>();
  values.forEach((value, index) => {
    if (value === null) return;
    const before = values[index - 1] ?? null;
    const after = values[index + 1] ?? null;
    if (before === null && after === null) isolated.add(index);
  });
  return isolated;
}
