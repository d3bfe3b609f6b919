import {
  type AttributionDimension,
  AttributionDimensionLabels,
  type AttributionRow,
} from '@polyflow/contracts/acquisition';
import { cn } from '../../../components/ui/cn';
import { ArrowDown, ArrowUp, ArrowUpDown } from '../../../components/ui/icons';
import { Breakable } from '../../../lib/break-points';
import { formatPercent } from '../../../lib/format';
import type { AttributionSort } from '../hooks/use-acquisition-view';
import { attributionRowName, previousRowOf } from '../lib/acquisition-csv';
import {
  type AttributionColumn,
  AttributionColumns,
  formatCount,
  sortAttributionRows,
} from '../lib/attribution-columns';

interface AttributionTableProps {
  dimension: AttributionDimension;
  rows: readonly AttributionRow[];
  /** The previous period's rows: each rate shows the previous one under it (undefined while loading). */
  previousRows?: readonly AttributionRow[] | undefined;
  sort: AttributionSort | null;
  onSortChange: (sort: AttributionSort | null) => void;
  isRefreshing: boolean;
  /** The picked goal's converting users per row (undefined: no goal picked). */
  goalColumn?: GoalColumn | undefined;
}

export interface GoalColumn {
  name: string;
  isLoading: boolean;
  error: string | undefined;
  valueOf: (row: { kind: string; value: string | null }) => number | undefined;
}

/** Next sort on a header click: largest first, then smallest first, then the server's order. */
function nextSort(column: AttributionColumn, sort: AttributionSort | null): AttributionSort | null {
  if (sort?.key !== column.key) return { key: column.key, direction: 'desc' };
  return sort.direction === 'desc' ? { key: column.key, direction: 'asc' } : null;
}

export function AttributionTable({
  dimension,
  rows,
  previousRows,
  sort,
  onSortChange,
  isRefreshing,
  goalColumn,
}: AttributionTableProps) {
  const sorted = sortAttributionRows(rows, sort);
  return (
    // On a phone each row is a card of label/value pairs (the labels come from CSS, so the table stays
    // one table for screen readers) and the headers wrap as sort buttons: nothing scrolls sideways.
    <div className="relative rounded-xl ring-1 ring-slate-200 sm:overflow-x-auto">
      <table
        aria-busy={isRefreshing || undefined}
        className={cn(
          'w-full text-sm transition-opacity max-sm:block md:min-w-[44rem]',
          isRefreshing && 'opacity-60',
        )}
      >
        <thead className="bg-indigo-50 text-left text-xs font-semibold uppercase tracking-wide text-indigo-800 max-sm:block">
          <tr className="max-sm:flex max-sm:flex-wrap max-sm:gap-1 max-sm:p-2">
            <th scope="col" className="px-3 py-2.5 max-sm:w-full max-sm:px-1 max-sm:py-0">
              {AttributionDimensionLabels[dimension]}
            </th>
            {AttributionColumns.map((column) => {
              const direction = sort?.key === column.key ? sort.direction : null;
              const Icon = direction === 'asc' ? ArrowUp : direction === 'desc' ? ArrowDown : ArrowUpDown;
              return (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
                  className="px-1 py-1.5 text-right max-sm:p-0"
                >
                  <button
                    type="button"
                    title={column.definition}
                    onClick={() => onSortChange(nextSort(column, sort))}
                    className="inline-flex items-center gap-1 rounded-md px-2 py-1 whitespace-nowrap uppercase hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    {column.header}
                    <Icon aria-hidden="true" className={cn('size-3.5', !direction && 'text-indigo-300')} />
                  </button>
                </th>
              );
            })}
            {goalColumn && (
              <th
                scope="col"
                title={`Users who reached the goal "${goalColumn.name}" in a session of this row.`}
                className="max-w-40 truncate px-3 py-2.5 text-right normal-case max-sm:p-0"
              >
                Goal: {goalColumn.name}
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 max-sm:block">
          {sorted.map((row) => {
            const before = previousRowOf(row, previousRows);
            return (
              <tr
                key={`${row.kind}:${row.value ?? ''}`}
                className={cn(
                  'max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:px-3 max-sm:py-2',
                  row.kind === 'total' && 'bg-slate-50 font-semibold',
                  row.kind === 'unattributed' && 'text-slate-500',
                )}
              >
                <th
                  scope="row"
                  className="max-w-64 truncate px-3 py-2 text-left font-semibold text-slate-800 max-sm:col-span-2 max-sm:max-w-none max-sm:px-0 max-sm:whitespace-normal max-sm:break-words"
                >
                  <span className={cn(row.kind === 'unattributed' && 'italic font-normal text-slate-500')}>
                    <Breakable text={attributionRowName(row)} />
                  </span>
                </th>
                {AttributionColumns.map((column) => {
                  const value = row[column.key];
                  return (
                    <td
                      key={column.key}
                      title={column.parts?.(row)}
                      data-label={column.header}
                      className="px-3 py-2 text-right tabular-nums text-slate-700 max-sm:flex max-sm:justify-between max-sm:gap-2 max-sm:px-0 max-sm:py-0.5 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)] max-sm:before:whitespace-nowrap"
                    >
                      {column.kind === 'rate' ? (
                        <span className="inline-flex flex-col items-end">
                          {formatPercent(value)}
                          {previousRows && (
                            <span
                              className="text-[0.7rem] font-normal whitespace-nowrap text-slate-500"
                              data-testid="previous-rate"
                            >
                              <span className="sr-only">previous period </span>
                              <span aria-hidden="true">prev. </span>
                              {formatPercent(before ? before[column.key] : null)}
                            </span>
                          )}
                        </span>
                      ) : (
                        formatCount(value ?? 0)
                      )}
                    </td>
                  );
                })}
                {goalColumn && (
                  <td
                    data-label={`Goal: ${goalColumn.name}`}
                    data-testid="goal-conversions"
                    className="px-3 py-2 text-right tabular-nums text-slate-700 max-sm:flex max-sm:justify-between max-sm:gap-2 max-sm:px-0 max-sm:py-0.5 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)] max-sm:before:whitespace-nowrap"
                  >
                    {goalColumn.error
                      ? '—'
                      : goalColumn.isLoading
                        ? '…'
                        : formatCount(goalColumn.valueOf(row) ?? 0)}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The legend under the table: what each column counts. */
export function AttributionLegend() {
  return (
    <details className="mt-3 text-sm text-slate-600">
      <summary className="cursor-pointer font-semibold text-indigo-700">Column definitions</summary>
      <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        {AttributionColumns.map((column) => (
          <div key={column.key} className="contents">
            <dt className="font-semibold text-slate-800">{column.header}</dt>
            <dd>{column.definition}</dd>
          </div>
        ))}
        <dt className="font-semibold text-slate-800">Unattributed</dt>
        <dd>Sessions that landed without a value for this UTM parameter.</dd>
      </dl>
    </details>
  );
}
