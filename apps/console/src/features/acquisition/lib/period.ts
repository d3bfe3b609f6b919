/**
 * The period chips (spec §9: Today, Yesterday, Week, Month, 90D, 6M) and the custom date inputs. A range is
 * a pair of calendar days in the viewer's time zone, both included; it is sent to the server as the
 * half-open instant range [from's midnight, the midnight after `to`). Whole days keep the query keys
 * stable for a day, so the chips do not refetch on every render.
 */

export const PeriodKeys = ['today', 'yesterday', 'week', 'month', '90d', '6m'] as const;
export type PeriodKey = (typeof PeriodKeys)[number];

export const Periods: Record<
  PeriodKey,
  { label: string; description: string; days: number; endsToday: boolean }
> = {
  today: { label: 'Today', description: 'Today so far', days: 1, endsToday: true },
  yesterday: { label: 'Yesterday', description: 'Yesterday', days: 1, endsToday: false },
  week: { label: 'Week', description: 'Last 7 days', days: 7, endsToday: true },
  month: { label: 'Month', description: 'Last 30 days', days: 30, endsToday: true },
  '90d': { label: '90D', description: 'Last 90 days', days: 90, endsToday: true },
  '6m': { label: '6M', description: 'Last 180 days', days: 180, endsToday: true },
};

/** Calendar days as YYYY-MM-DD, both included. */
export interface DayRange {
  from: string;
  to: string;
}

/** What the URL says: a chip, or custom days when `period` is null. */
export interface PeriodSelection {
  period: PeriodKey | null;
  days: DayRange;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function formatDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Local midnight of a YYYY-MM-DD day, or null when it is not a real day. */
export function parseDay(day: string): Date | null {
  if (!DAY.test(day)) return null;
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  const midnight = new Date(year, month - 1, date);
  return formatDay(midnight) === day ? midnight : null;
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

export function periodDays(period: PeriodKey, now: Date = new Date()): DayRange {
  const { days, endsToday } = Periods[period];
  const last = endsToday ? now : addDays(now, -1);
  return { from: formatDay(addDays(last, -(days - 1))), to: formatDay(last) };
}

function isPeriodKey(value: string | null): value is PeriodKey {
  return value !== null && (PeriodKeys as readonly string[]).includes(value);
}

/** URL params `period`, or `from` and `to` (custom days); anything unreadable falls back to the default. */
export function readPeriod(
  params: URLSearchParams,
  fallback: PeriodKey,
  now: Date = new Date(),
): PeriodSelection {
  const from = params.get('from');
  const to = params.get('to');
  if (from && to && parseDay(from) && parseDay(to) && from <= to) {
    return { period: null, days: { from, to } };
  }
  const requested = params.get('period');
  const period = isPeriodKey(requested) ? requested : fallback;
  return { period, days: periodDays(period, now) };
}

/** Writes a selection into `params` (a copy): a chip as `period`, custom days as `from`/`to`. */
export function writePeriod(params: URLSearchParams, selection: PeriodSelection): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('period');
  next.delete('from');
  next.delete('to');
  if (selection.period) next.set('period', selection.period);
  else {
    next.set('from', selection.days.from);
    next.set('to', selection.days.to);
  }
  return next;
}

/** The instants the server gets: [midnight of `from`, midnight after `to`), as ISO UTC strings. */
export function toInstants(days: DayRange): { from: string; to: string } {
  const from = parseDay(days.from) ?? new Date();
  const to = addDays(parseDay(days.to) ?? new Date(), 1);
  return { from: from.toISOString(), to: to.toISOString() };
}

/** "Last 7 days" for a chip, "3 Mar 2025 – 9 Mar 2025" for custom days. */
export function describePeriod(selection: PeriodSelection): string {
  if (selection.period) return Periods[selection.period].description;
  const format = (day: string) =>
    (parseDay(day) ?? new Date()).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
    });
  return selection.days.from === selection.days.to
    ? format(selection.days.from)
    : `${format(selection.days.from)} – ${format(selection.days.to)}`;
}
