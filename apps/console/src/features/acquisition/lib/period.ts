import {
  type PeriodSelection,
  type PresetPeriodId,
  periodFromSearchParams,
  periodToSearchParams,
  resolvePeriod,
  selectionDates,
} from '../../../components/ui/periods';

/**
 * The acquisition and incident screens use the console's shared periods (`components/ui/periods.ts`:
 * whole UTC days, `?period=7d` or `?period=custom&from=…&to=…`), under the chip names of spec §9.
 */
export type { PeriodSelection, PresetPeriodId };

export const PeriodChips: ReadonlyArray<{ id: PresetPeriodId; label: string; description: string }> = [
  { id: 'today', label: 'Today', description: 'Today (UTC)' },
  { id: 'yesterday', label: 'Yesterday', description: 'Yesterday (UTC)' },
  { id: '7d', label: 'Week', description: 'Last 7 days' },
  { id: '30d', label: 'Month', description: 'Last 30 days' },
  { id: '90d', label: '90D', description: 'Last 90 days' },
  { id: '6m', label: '6M', description: 'Last 6 months' },
];

/** The URL's period, or `fallback` when the URL names none (each screen has its own default). */
export function readPeriod(params: URLSearchParams, fallback: PresetPeriodId): PeriodSelection {
  return params.has('period') ? periodFromSearchParams(params) : { kind: 'preset', id: fallback };
}

export const writePeriod = (params: URLSearchParams, selection: PeriodSelection) =>
  periodToSearchParams(selection, params);

/** The YYYY-MM-DD days the selection covers, both included (what the date inputs show). */
export const selectionDays = (selection: PeriodSelection) => selectionDates(selection);

/** The instants sent to the server: [from, to), whole UTC days. */
export function toInstants(selection: PeriodSelection): { from: string; to: string } {
  const { from, to } = resolvePeriod(selection);
  return { from, to };
}

/** "Last 7 days" for a chip, "3 Mar – 9 Mar 2025 (UTC)" for custom days. */
export function describePeriod(selection: PeriodSelection): string {
  if (selection.kind === 'preset') {
    return (
      PeriodChips.find((chip) => chip.id === selection.id)?.description ?? resolvePeriod(selection).label
    );
  }
  return resolvePeriod(selection).label;
}
