import type { FilterOption } from '@polyflow/contracts/acquisition';
import { useEffect, useId, useOptimistic, useRef, useState, useTransition } from 'react';
import { cn } from '../../../components/ui/cn';
import { ChevronDown, X } from '../../../components/ui/icons';

interface MultiSelectProps {
  /** The filter's name in the URL; marks the chip so the filter bar can move focus to it. */
  filterKey?: string;
  label: string;
  options: readonly FilterOption[];
  selected: readonly string[];
  onChange: (values: string[]) => void;
  /** How a value reads, e.g. a country code as its name. */
  labelFor?: (value: string) => string;
  /** Shown for filters added with '+ Add filter'. */
  onRemove?: () => void;
  isLoading?: boolean;
}

/** A filter chip that opens a checkbox list; each change applies at once. */
export function MultiSelect({
  filterKey,
  label,
  options,
  selected,
  onChange,
  labelFor = (value) => value,
  onRemove,
  isLoading = false,
}: MultiSelectProps) {
  const [isOpen, setIsOpen] = useState(false);
  const [search, setSearch] = useState('');
  // The selection lives in the URL; a navigation is a transition that may wait for data. The box is
  // ticked at once, and follows the URL once the navigation is done.
  const [shownSelected, showSelected] = useOptimistic(selected);
  const [, startTransition] = useTransition();
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  // Outside clicks and Escape close the list; Escape hands focus back to the chip.
  useEffect(() => {
    if (!isOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setIsOpen(false);
    };
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
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

  // Values from a shared URL may be absent in this period's options: keep them listed (and ticked).
  const known = new Set(options.map((option) => option.value));
  const all = [
    ...shownSelected.filter((value) => !known.has(value)).map((value) => ({ value, users: 0 })),
    ...options,
  ];
  const needle = search.trim().toLowerCase();
  const shown = needle
    ? all.filter((option) => `${option.value} ${labelFor(option.value)}`.toLowerCase().includes(needle))
    : all;

  const apply = (next: string[]) =>
    startTransition(() => {
      showSelected(next);
      onChange(next);
    });
  const toggle = (value: string) =>
    apply(
      shownSelected.includes(value)
        ? shownSelected.filter((item) => item !== value)
        : [...shownSelected, value],
    );
  const summary =
    shownSelected.length === 0
      ? 'Any'
      : shownSelected.length <= 2
        ? shownSelected.map(labelFor).join(', ')
        : `${shownSelected.length} selected`;

  return (
    <div ref={rootRef} data-filter-key={filterKey} className="relative">
      <div
        className={cn(
          'flex h-9 items-center rounded-lg ring-1 ring-inset',
          shownSelected.length > 0 ? 'bg-indigo-50 ring-indigo-300' : 'bg-white ring-slate-300',
        )}
      >
        <button
          ref={buttonRef}
          type="button"
          aria-expanded={isOpen}
          aria-controls={panelId}
          aria-label={`${label}: ${summary}`}
          onClick={() => setIsOpen((open) => !open)}
          className="flex h-full max-w-64 items-center gap-1.5 rounded-lg px-3 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <span className="font-semibold text-slate-700">{label}</span>
          <span className="truncate text-indigo-800">{summary}</span>
          <ChevronDown aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
        </button>
        {onRemove && (
          <button
            type="button"
            aria-label={`Remove ${label} filter`}
            onClick={onRemove}
            className="mr-1 rounded-md p-1 text-slate-500 hover:bg-white hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <X aria-hidden="true" className="size-3.5" />
          </button>
        )}
      </div>
      {isOpen && (
        <fieldset
          id={panelId}
          className="absolute left-0 z-20 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-xl bg-white p-2 shadow-lg ring-1 ring-slate-900/10"
        >
          <legend className="sr-only">{label} values</legend>
          {all.length > 8 && (
            <input
              type="search"
              aria-label={`Search ${label.toLowerCase()} values`}
              placeholder="Search…"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className="mb-2 h-8 w-full rounded-md border border-slate-300 px-2 text-sm focus:outline-2 focus:outline-indigo-500"
            />
          )}
          <ul className="max-h-64 overflow-y-auto">
            {shown.map((option) => {
              const isChecked = shownSelected.includes(option.value);
              return (
                <li key={option.value}>
                  <label className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-indigo-50">
                    <input
                      type="checkbox"
                      className="size-4 shrink-0 accent-indigo-700"
                      checked={isChecked}
                      onChange={() => toggle(option.value)}
                    />
                    <span className="min-w-0 flex-1 truncate text-slate-800">{labelFor(option.value)}</span>
                    {option.users > 0 && (
                      <span className="shrink-0 text-xs text-slate-500">
                        {option.users.toLocaleString('en-US')}
                      </span>
                    )}
                  </label>
                </li>
              );
            })}
          </ul>
          {shown.length === 0 && (
            <p className="px-2 py-3 text-sm text-slate-500">
              {isLoading ? 'Loading values…' : 'No values in this period.'}
            </p>
          )}
          {shownSelected.length > 0 && (
            <button
              type="button"
              onClick={() => apply([])}
              className="mt-1 w-full rounded-md px-2 py-1.5 text-left text-xs font-semibold text-indigo-700 hover:bg-indigo-50"
            >
              Clear {label.toLowerCase()}
            </button>
          )}
        </fieldset>
      )}
    </div>
  );
}
