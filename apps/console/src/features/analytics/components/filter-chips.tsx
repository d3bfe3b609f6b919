import type { AnalyticsFilterKey, AnalyticsFilters } from '@polyflow/contracts/analytics';
import { X } from '../../../components/ui/icons';
import { chipsOf, removeLabel } from '../hooks/use-filter-actions';
import { FILTER_LABELS, filterValueLabel } from './filter-select';

/**
 * The screen's filters as removable chips ("Country: Germany ×"), and Clear filters; nothing without
 * filters. Every tile, chart and table below answers for the sessions they keep.
 */
export function FilterChips({
  filters,
  onRemove,
  onClear,
}: {
  filters: AnalyticsFilters;
  onRemove: (name: AnalyticsFilterKey, value: string) => void;
  onClear: () => void;
}) {
  const chips = chipsOf(filters);
  if (chips.length === 0) return null;
  return (
    <section
      aria-label="Filters"
      className="mb-4 flex flex-wrap items-center gap-2 rounded-xl bg-slate-50 p-3 ring-1 ring-inset ring-slate-200"
    >
      <h3 className="text-xs font-semibold uppercase tracking-widest text-slate-600">Filters</h3>
      <ul className="flex flex-wrap gap-2">
        {chips.map(({ name, value }) => {
          return (
            <li
              key={`${name}=${value}`}
              data-testid="filter-chip"
              className="flex max-w-full items-center gap-1 rounded-full bg-indigo-50 py-1 pr-1 pl-3 text-xs text-indigo-900 ring-1 ring-inset ring-indigo-200"
            >
              <span className="min-w-0 wrap-anywhere">
                <span className="font-semibold">{FILTER_LABELS[name]}:</span> {filterValueLabel(name, value)}
              </span>
              <button
                type="button"
                onClick={() => onRemove(name, value)}
                aria-label={removeLabel({ name, value })}
                className="rounded-full p-1 text-indigo-800 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                <X aria-hidden="true" className="size-3.5" />
              </button>
            </li>
          );
        })}
      </ul>
      <button
        type="button"
        onClick={onClear}
        className="ml-auto text-xs font-semibold text-indigo-700 hover:underline"
      >
        Clear filters
      </button>
    </section>
  );
}
