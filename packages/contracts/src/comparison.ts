/**
 * Shared by the console (lib/comparison.ts) and the server's email reports (modules/reports).
 * The comparison with the previous period (docs/analytics.md, "The previous period"). Counts and averages
 * change relatively ((current − previous) / previous); rates change in percentage points, because a
 * relative change of a rate (2 % → 3 % = "+50 %") misleads. With nothing to compare (the previous value is
 * 0 or null, or the current one is null) there is no change, and the reason is said.
 */

export type ChangeKind = 'relative' | 'points';
export type ChangeDirection = 'up' | 'down' | 'flat';

export type Comparison =
  | {
      hasChange: true;
      direction: ChangeDirection;
      /** Relative: 0.12 for +12 %. Points: 0.012 for +1.2 percentage points (a difference of fractions). */
      change: number;
      /** "12%", "3.5%", "1.2 pp", without sign: the arrow says the direction. */
      magnitude: string;
    }
  | { hasChange: false; reason: 'no-previous' | 'no-current' };

const LOCALE = 'en-US';
/**
 * Made on first use, not when the module loads: an Intl formatter reads ICU's number data, about 5 MB of
 * pages of the `node` binary that would otherwise stay resident in an idle server (docs/decisions/089).
 */
const formatters = new Map<number, Intl.NumberFormat>();
function withDecimals(maximumFractionDigits: number): Intl.NumberFormat {
  let formatter = formatters.get(maximumFractionDigits);
  if (!formatter) {
    formatter = new Intl.NumberFormat(LOCALE, { maximumFractionDigits });
    formatters.set(maximumFractionDigits, formatter);
  }
  return formatter;
}
/** Below this a change is rounding noise, and reads as flat. */
const EPSILON = 1e-9;

function magnitudeOf(change: number, kind: ChangeKind): string {
  const hundredths = Math.abs(change) * 100;
  if (kind === 'points') return `${withDecimals(1).format(hundredths)} pp`;
  // A whole percent from 10 % up, one decimal below: "+3.5%" says more than "+4%".
  return `${withDecimals(hundredths >= 10 ? 0 : 1).format(hundredths)}%`;
}

export function compare(current: number | null, previous: number | null, kind: ChangeKind): Comparison {
  if (current === null) return { hasChange: false, reason: 'no-current' };
  if (previous === null) return { hasChange: false, reason: 'no-previous' };
  if (kind === 'relative' && previous === 0) return { hasChange: false, reason: 'no-previous' };
  const change = kind === 'relative' ? (current - previous) / previous : current - previous;
  const direction: ChangeDirection = Math.abs(change) < EPSILON ? 'flat' : change > 0 ? 'up' : 'down';
  return {
    hasChange: true,
    direction,
    change: direction === 'flat' ? 0 : change,
    magnitude: magnitudeOf(change, kind),
  };
}

/** "up 12%", "down 1.2 pp", "no change", "nothing to compare with": what a screen reader hears. */
export function describeComparison(comparison: Comparison): string {
  if (!comparison.hasChange) return 'nothing to compare with';
  if (comparison.direction === 'flat') return 'no change';
  return `${comparison.direction} ${comparison.magnitude}`;
}
