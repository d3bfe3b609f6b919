import { instantOfWallClock, localDate } from '@polyflow/contracts/time-zone';
import { displayTimeZone, formatDate } from '../../lib/format';

/**
 * The console's one set of reporting periods (Analytics, User Acquisition, Incident Tracking), under the
 * chip names of spec §9. Days are the project's time zone (docs/timezone.md), like the server's day
 * buckets: a period is a half-open range of whole local days, [from, to), sent as the UTC instants of
 * their local midnights, so "Week" is today and the six local days before it (a 23- or 25-hour day is one
 * day), and a custom range's end date is included.
 */

export const PERIODS = [
  { id: 'today', label: 'Today', description: 'Today' },
  { id: 'yesterday', label: 'Yesterday', description: 'Yesterday' },
  { id: '7d', label: 'Week', description: 'Last 7 days' },
  { id: '30d', label: 'Month', description: 'Last 30 days' },
  { id: '90d', label: '90D', description: 'Last 90 days' },
  { id: '6m', label: '6M', description: 'Last 6 months' },
] as const;

export type PresetPeriodId = (typeof PERIODS)[number]['id'];
export type PeriodSelection =
  | { kind: 'preset'; id: PresetPeriodId }
  | { kind: 'custom'; from: string; to: string };

export const DEFAULT_PERIOD: PeriodSelection = { kind: 'preset', id: '30d' };

/** A resolved period: ISO instants for the server and a bucket width (server granularity string). */
export interface ResolvedPeriod {
  from: string;
  to: string;
  granularity: '1h' | '1d' | '7d';
  /** Human description, e.g. "1 Mar – 30 Mar 2025 (UTC)", "… (Europe/Berlin)". */
  label: string;
}

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const toDateInput = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A `YYYY-MM-DD` that is a real date, as UTC midnight (the date's number); null otherwise. */
export function parseDateInput(text: string | null | undefined): number | null {
  if (!text || !DATE.test(text)) return null;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(ms) && toDateInput(ms) === text ? ms : null;
}

/** The instant a local date (`YYYY-MM-DD` as its UTC-midnight number) starts in the zone. */
const midnightOf = (dateMs: number, zone: string) => instantOfWallClock(dateMs, zone);

/** Hourly buckets up to two days, daily up to ~four months, weekly beyond: 24–180 points at most. */
function granularityFor(lengthMs: number): ResolvedPeriod['granularity'] {
  if (lengthMs <= 2 * DAY_MS) return '1h';
  if (lengthMs <= 120 * DAY_MS) return '1d';
  return '7d';
}

function rangeLabel(fromMs: number, toMs: number, zone: string): string {
  const first = formatDate(fromMs, zone);
  const last = formatDate(toMs - 1, zone);
  return `${first === last ? first : `${first} – ${last}`} (${zone})`;
}

/**
 * The selection as UTC instants of local midnights in `zone` (default: the current project's). Local
 * dates are counted as dates (their UTC-midnight numbers), then each is turned into its midnight's instant.
 */
export function resolvePeriod(
  selection: PeriodSelection,
  nowMs: number = Date.now(),
  zone: string = displayTimeZone(),
): ResolvedPeriod {
  // Today's local date, as a date number (UTC midnight of that date).
  const tomorrow = Date.parse(`${localDate(nowMs, zone)}T00:00:00Z`) + DAY_MS;
  let fromDate: number;
  let toDate = tomorrow;
  if (selection.kind === 'custom') {
    fromDate = parseDateInput(selection.from) ?? tomorrow - 30 * DAY_MS;
    toDate = (parseDateInput(selection.to) ?? tomorrow - DAY_MS) + DAY_MS;
    if (toDate <= fromDate) toDate = fromDate + DAY_MS;
  } else if (selection.id === 'today') {
    fromDate = tomorrow - DAY_MS;
  } else if (selection.id === 'yesterday') {
    toDate = tomorrow - DAY_MS;
    fromDate = toDate - DAY_MS;
  } else if (selection.id === '6m') {
    const end = new Date(tomorrow);
    fromDate = Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 6, end.getUTCDate());
  } else {
    fromDate = tomorrow - Number.parseInt(selection.id, 10) * DAY_MS;
  }
  const fromMs = midnightOf(fromDate, zone);
  const toMs = midnightOf(toDate, zone);
  return {
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    granularity: granularityFor(toDate - fromDate),
    label: rangeLabel(fromMs, toMs, zone),
  };
}

/** "Last 7 days (18 Nov – 24 Nov 2026, UTC)" for a chip, "3 Mar – 9 Mar 2025 (UTC)" for custom days. */
export function describePeriod(selection: PeriodSelection, nowMs: number = Date.now()): string {
  const { label } = resolvePeriod(selection, nowMs);
  if (selection.kind === 'custom') return label;
  const description = PERIODS.find((period) => period.id === selection.id)?.description ?? '';
  return `${description} (${label.replace(/ \(([^)]*)\)$/, ', $1')})`;
}

/**
 * Reads `?period=7d` or `?period=custom&from=YYYY-MM-DD&to=YYYY-MM-DD`; anything else is `fallback`
 * (each screen has its own default: the incident list the last 7 days, the others 30).
 */
export function periodFromSearchParams(
  params: URLSearchParams,
  fallback: PeriodSelection = DEFAULT_PERIOD,
): PeriodSelection {
  const period = params.get('period');
  if (period === 'custom') {
    const from = params.get('from');
    const to = params.get('to');
    const fromMs = parseDateInput(from);
    const toMs = parseDateInput(to);
    if (from && to && fromMs !== null && toMs !== null && fromMs <= toMs) return { kind: 'custom', from, to };
    return fallback;
  }
  const preset = PERIODS.find((candidate) => candidate.id === period);
  return preset ? { kind: 'preset', id: preset.id } : fallback;
}

/** Writes the selection into a copy of `params`, keeping the other parameters (e.g. the tab). */
export function periodToSearchParams(selection: PeriodSelection, params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('from');
  next.delete('to');
  if (selection.kind === 'custom') {
    next.set('period', 'custom');
    next.set('from', selection.from);
    next.set('to', selection.to);
  } else {
    next.set('period', selection.id);
  }
  return next;
}

/** The custom inputs' starting values: the dates the current selection covers. */
export function selectionDates(selection: PeriodSelection, nowMs: number = Date.now()) {
  if (selection.kind === 'custom') return { from: selection.from, to: selection.to };
  const zone = displayTimeZone();
  const resolved = resolvePeriod(selection, nowMs, zone);
  return {
    from: localDate(Date.parse(resolved.from), zone),
    to: localDate(Date.parse(resolved.to) - 1, zone),
  };
}
