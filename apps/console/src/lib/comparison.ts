/**
 * The comparison with the previous period is defined once, in the contracts, because the server's email
 * reports (modules/reports) state the same changes the console shows.
 */
import { type ChangeKind, type Comparison, compare as compareExactly } from '@polyflow/contracts/comparison';

export {
  type ChangeDirection,
  type ChangeKind,
  type Comparison,
  describeComparison,
} from '@polyflow/contracts/comparison';

/**
 * The change as the console shows it: a change whose shown magnitude rounds to nothing ("0 pp" for 77.21 %
 * vs 77.24 %, "0%" for 10,002 vs 10,000) is flat, so no red or green arrow points at a "0".
 */
export function compare(current: number | null, previous: number | null, kind: ChangeKind): Comparison {
  const comparison = compareExactly(current, previous, kind);
  if (!comparison.hasChange || comparison.direction === 'flat') return comparison;
  const shown = Number.parseFloat(comparison.magnitude.replace(/,/g, ''));
  return shown === 0 ? { ...comparison, direction: 'flat', change: 0 } : comparison;
}
