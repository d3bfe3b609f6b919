import type {
  AcquisitionFilterKey,
  AcquisitionFilterOptions,
  AcquisitionFilters,
} from '@polyflow/contracts/acquisition';
import { useEffect, useId, useRef, useState } from 'react';
import { Plus } from '../../../components/ui/icons';
import { announce, focusSoon } from '../../../lib/announce';
import { countryName } from '../../../lib/format';
import { MultiSelect } from './multi-select';

/** Location and Term are always there (spec); the rest come through '+ Add filter'. */
const FixedFilters = ['countries', 'terms'] as const satisfies readonly AcquisitionFilterKey[];
const OptionalFilters = [
  'sources',
  'mediums',
  'campaigns',
  'contents',
  'browsers',
  'walletProviders',
] as const satisfies readonly AcquisitionFilterKey[];

export const FilterLabels: Record<AcquisitionFilterKey, string> = {
  countries: 'Location',
  terms: 'Term',
  sources: 'Source',
  mediums: 'Medium',
  campaigns: 'Campaign',
  contents: 'Content',
  browsers: 'Browser',
  walletProviders: 'Wallet provider',
};

interface FilterBarProps {
  filters: AcquisitionFilters;
  onFilterChange: (key: AcquisitionFilterKey, values: readonly string[]) => void;
  onClear: () => void;
  options: AcquisitionFilterOptions | undefined;
  isLoadingOptions: boolean;
}

const valueLabel = (key: AcquisitionFilterKey, value: string) =>
  key === 'countries' ? countryName(value) : value;

/** "Filter Location: Germany added" as a box is ticked or unticked (the list stays open, focus on the box). */
function announceChange(key: AcquisitionFilterKey, before: readonly string[], after: readonly string[]) {
  const added = after.filter((value) => !before.includes(value));
  const removed = before.filter((value) => !after.includes(value));
  const name = (values: string[]) =>
    `${FilterLabels[key]}: ${values.map((value) => valueLabel(key, value)).join(', ')}`;
  if (added.length > 0) announce(`Filter ${name(added)} added`);
  else if (removed.length > 0) announce(`Filter ${name(removed)} removed`);
}

export function FilterBar({ filters, onFilterChange, onClear, options, isLoadingOptions }: FilterBarProps) {
  const titleId = useId();
  const [added, setAdded] = useState<AcquisitionFilterKey[]>([]);
  const shownOptional = OptionalFilters.filter(
    (key) => added.includes(key) || (filters[key]?.length ?? 0) > 0,
  );
  const addable = OptionalFilters.filter((key) => !shownOptional.includes(key));
  const hasFilters = Object.keys(filters).length > 0;
  const rootRef = useRef<HTMLElement>(null);
  const shownKeys: AcquisitionFilterKey[] = [...FixedFilters, ...shownOptional];

  // Where focus goes once an added or removed filter is on screen or gone (WCAG 2.4.3): a filter's
  // values live in the URL, so its chip leaves only after the navigation, not on the click.
  const pendingFocus = useRef<{ isDone: () => boolean; find: () => HTMLElement | null } | null>(null);
  useEffect(() => {
    const focus = pendingFocus.current;
    if (!focus?.isDone()) return;
    pendingFocus.current = null;
    focusSoon(focus.find);
  });
  const chipButton = (key: AcquisitionFilterKey | undefined) =>
    key === undefined
      ? null
      : (rootRef.current?.querySelector<HTMLElement>(`[data-filter-key="${key}"] button`) ?? null);
  const isShown = (key: AcquisitionFilterKey) => chipButton(key) !== null;
  const addButton = () => rootRef.current?.querySelector<HTMLElement>('[data-add-filter]') ?? null;

  const add = (key: AcquisitionFilterKey) => {
    pendingFocus.current = { isDone: () => isShown(key), find: () => chipButton(key) };
    setAdded((keys) => [...keys, key]);
    announce(`Filter ${FilterLabels[key]} added; choose its values`);
  };
  const remove = (key: AcquisitionFilterKey) => {
    const index = shownKeys.indexOf(key);
    const neighbour = shownKeys[index + 1] ?? shownKeys[index - 1];
    pendingFocus.current = {
      isDone: () => !isShown(key),
      find: () => chipButton(neighbour) ?? addButton(),
    };
    setAdded((keys) => keys.filter((item) => item !== key));
    onFilterChange(key, []);
    announce(`Filter ${FilterLabels[key]} removed`);
  };
  const clear = () => {
    pendingFocus.current = {
      isDone: () => shownOptional.every((key) => !isShown(key)),
      find: () => document.getElementById(titleId),
    };
    setAdded([]);
    onClear();
    announce('Filters cleared');
  };

  const selectFor = (key: AcquisitionFilterKey, removable: boolean) => (
    <MultiSelect
      key={key}
      filterKey={key}
      label={FilterLabels[key]}
      options={options?.[key] ?? []}
      selected={filters[key] ?? []}
      onChange={(values) => {
        onFilterChange(key, values);
        announceChange(key, filters[key] ?? [], values);
      }}
      isLoading={isLoadingOptions}
      {...(key === 'countries' && { labelFor: countryName })}
      {...(removable && { onRemove: () => remove(key) })}
    />
  );

  return (
    <section
      ref={rootRef}
      aria-labelledby={titleId}
      className="mb-5 rounded-xl bg-slate-50 p-3 ring-1 ring-inset ring-slate-200"
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 id={titleId} className="text-xs font-semibold uppercase tracking-widest text-slate-600">
          Filters
        </h3>
        {hasFilters && (
          <button
            type="button"
            onClick={clear}
            className="text-xs font-semibold text-indigo-700 hover:underline"
          >
            Clear filters
          </button>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {FixedFilters.map((key) => selectFor(key, false))}
        {shownOptional.map((key) => selectFor(key, true))}
        {addable.length > 0 && <AddFilterMenu keys={addable} onAdd={add} />}
      </div>
    </section>
  );
}

function AddFilterMenu({
  keys,
  onAdd,
}: {
  keys: readonly AcquisitionFilterKey[];
  onAdd: (key: AcquisitionFilterKey) => void;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!isOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setIsOpen(false);
    };
    // Escape closes the list and hands focus back to the button (the item that had it is gone).
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setIsOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [isOpen]);
  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        data-add-filter
        type="button"
        aria-expanded={isOpen}
        aria-controls={menuId}
        onClick={() => setIsOpen((open) => !open)}
        className="flex h-9 items-center gap-1 rounded-lg px-3 text-sm font-semibold text-indigo-700 ring-1 ring-inset ring-dashed ring-indigo-300 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <Plus aria-hidden="true" className="size-4" />
        Add filter
      </button>
      {isOpen && (
        <ul
          id={menuId}
          aria-label="Filters to add"
          className="absolute left-0 z-20 mt-1 w-48 rounded-xl bg-white p-1 shadow-lg ring-1 ring-slate-900/10"
        >
          {keys.map((key) => (
            <li key={key}>
              <button
                type="button"
                onClick={() => {
                  onAdd(key);
                  setIsOpen(false);
                }}
                className="w-full rounded-md px-3 py-1.5 text-left text-sm text-slate-800 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                {FilterLabels[key]}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
