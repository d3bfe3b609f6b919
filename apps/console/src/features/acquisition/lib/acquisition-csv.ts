import {
  type AttributionDimension,
  AttributionDimensionLabels,
  type AttributionRow,
  type FunnelStep,
  FunnelStepLabels,
} from '@polyflow/contracts/acquisition';
import type { CsvTable } from '../../../lib/csv';
import { AttributionColumns } from './attribution-columns';

/** The previous period's row for the same value (Total and Unattributed by their kind); undefined if absent. */
export function previousRowOf(
  row: AttributionRow,
  previousRows: readonly AttributionRow[] | undefined,
): AttributionRow | undefined {
  return previousRows?.find((before) => before.kind === row.kind && before.value === row.value);
}

export function attributionRowName(row: AttributionRow): string {
  if (row.kind === 'total') return 'Total';
  if (row.kind === 'unattributed') return 'Unattributed';
  return row.value ?? '';
}

/** The funnel tiles as a file: users and share of Total Users, and the previous period's beside them. */
export function funnelCsv(
  steps: readonly FunnelStep[],
  previous: readonly FunnelStep[] | undefined,
): CsvTable {
  const withPrevious = previous !== undefined;
  return {
    header: ['step', 'users', 'share', ...(withPrevious ? ['previous_users', 'previous_share'] : [])],
    rows: steps.map((step) => {
      const before = previous?.find((candidate) => candidate.key === step.key);
      const label = FunnelStepLabels[step.key] ?? step.label;
      return withPrevious
        ? [label, step.users, step.share, before?.users ?? null, before?.share ?? null]
        : [label, step.users, step.share];
    }),
  };
}

/**
 * The attribution table as a file, in the order on screen (sorted as shown): every column raw (rates as
 * fractions) and, when shown, the previous period's rates beside them.
 */
export function attributionCsv(
  dimension: AttributionDimension,
  rows: readonly AttributionRow[],
  previousRows: readonly AttributionRow[] | undefined,
): CsvTable {
  const rates = AttributionColumns.filter((column) => column.kind === 'rate');
  const withPrevious = previousRows !== undefined;
  return {
    header: [
      AttributionDimensionLabels[dimension],
      ...AttributionColumns.map((column) => column.header),
      ...(withPrevious ? rates.map((column) => `Previous ${column.header}`) : []),
    ],
    rows: rows.map((row) => {
      const before = previousRowOf(row, previousRows);
      return [
        attributionRowName(row),
        ...AttributionColumns.map((column) => row[column.key]),
        ...(withPrevious ? rates.map((column) => (before ? before[column.key] : null)) : []),
      ];
    }),
  };
}
