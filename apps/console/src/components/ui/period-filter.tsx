import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { announce } from '../../lib/announce';
import { displayTimeZone } from '../../lib/format';
import { cn } from './cn';
import { CalendarRange } from './icons';
import { PERIODS, type PeriodSelection, parseDateInput, selectionDates } from './periods';

interface PeriodFilterProps {
  value: PeriodSelection;
  onChange: (selection: PeriodSelection) => void;
  className?: string;
}

/**
 * The console's one period control (every screen that has a period): the chips of spec §9 (Today …
 * 6M) and a custom range of dates in the project's time zone, both ends included, applied with a button so that typing a date
 * does not send a query per keystroke. Pair it with `usePeriod` (hooks/use-period.ts).
 */
export function PeriodFilter({ value, onChange, className }: PeriodFilterProps) {
  const id = useId();
  const initial = selectionDates(value);
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  // A half-typed date is empty for a moment: "Enter both dates" waits for Apply range.
  const [isApplyTried, setApplyTried] = useState(false);
  const fromRef = useRef<HTMLInputElement>(null);
  const toRef = useRef<HTMLInputElement>(null);
  const valueKey = value.kind === 'custom' ? `${value.from}/${value.to}` : value.id;
  // The inputs follow the chosen period, so they always show the dates being looked at.
  // biome-ignore lint/correctness/useExhaustiveDependencies: valueKey stands for value.
  useEffect(() => {
    const dates = selectionDates(value);
    setFrom(dates.from);
    setTo(dates.to);
    setApplyTried(false);
  }, [valueKey]);

  const fromMs = parseDateInput(from);
  const toMs = parseDateInput(to);
  const rangeError =
    fromMs === null || toMs === null
      ? 'Enter both dates.'
      : fromMs > toMs
        ? 'The start is after the end.'
        : null;

  const isFromInvalid = fromMs === null || (toMs !== null && fromMs > toMs);
  const isToInvalid = toMs === null;
  // Shown beside the dates and tied to them (WCAG 3.3.1); Apply range stays enabled and says it again.
  const shownError = rangeError && (isApplyTried || (fromMs !== null && toMs !== null)) ? rangeError : null;
  const errorId = `${id}-error`;

  const applyCustom = (event: FormEvent) => {
    event.preventDefault();
    if (!rangeError) {
      onChange({ kind: 'custom', from, to });
      return;
    }
    setApplyTried(true);
    announce(rangeError);
    (isFromInvalid ? fromRef : toRef).current?.focus();
  };
  const invalidProps = (isInvalid: boolean) =>
    shownError && isInvalid ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};

  return (
    <div className={cn('flex min-w-0 max-w-full flex-col gap-2 sm:items-end', className)}>
      <fieldset className="grid grid-cols-3 gap-1 rounded-xl bg-slate-50 p-1 ring-1 ring-inset ring-slate-200 sm:flex sm:flex-wrap">
        <legend className="sr-only">Period</legend>
        {PERIODS.map((period) => {
          const isActive = value.kind === 'preset' && value.id === period.id;
          return (
            <button
              key={period.id}
              type="button"
              aria-pressed={isActive}
              title={period.description}
              onClick={() => onChange({ kind: 'preset', id: period.id })}
              className={cn(
                'h-8 rounded-lg px-3 text-xs font-semibold transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600',
                isActive ? 'bg-indigo-700 text-white shadow-sm' : 'text-indigo-800 hover:bg-indigo-100',
              )}
            >
              {period.label}
            </button>
          );
        })}
      </fieldset>
      <form
        onSubmit={applyCustom}
        aria-label="Custom range"
        className="flex flex-wrap items-center gap-1.5 text-xs text-slate-600"
      >
        <CalendarRange aria-hidden="true" className="hidden size-4 text-indigo-600 sm:block" />
        {/* Label and input stay together when the row wraps on a phone. */}
        <span className="flex items-center gap-1.5">
          <label htmlFor={`${id}-from`} className="w-9 font-semibold uppercase tracking-wide sm:w-auto">
            From
          </label>
          <input
            ref={fromRef}
            id={`${id}-from`}
            type="date"
            {...invalidProps(isFromInvalid)}
            value={from}
            onChange={(event) => setFrom(event.target.value)}
            className="h-8 rounded-lg border border-slate-300 bg-white px-2 text-xs text-slate-900 aria-invalid:border-red-600 aria-invalid:ring-1 aria-invalid:ring-red-600"
          />
        </span>
        <span className="flex items-center gap-1.5">
          <label htmlFor={`${id}-to`} className="w-9 font-semibold uppercase tracking-wide sm:w-auto">
            To
          </label>
          <input
            ref={toRef}
            id={`${id}-to`}
            type="date"
            {...invalidProps(isToInvalid || isFromInvalid)}
            value={to}
            onChange={(event) => setTo(event.target.value)}
            className="h-8 rounded-lg border border-slate-300 bg-white px-2 text-xs text-slate-900 aria-invalid:border-red-600 aria-invalid:ring-1 aria-invalid:ring-red-600"
          />
        </span>
        <button
          type="submit"
          title={`Show this range (days in ${displayTimeZone()}, both included)`}
          aria-pressed={value.kind === 'custom'}
          className={cn(
            'h-8 rounded-lg px-3 text-xs font-semibold ring-1 ring-inset transition-colors',
            'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600',
            value.kind === 'custom'
              ? 'bg-indigo-700 text-white ring-indigo-700'
              : 'bg-white text-indigo-800 ring-indigo-200 hover:bg-indigo-50',
          )}
        >
          Apply range
        </button>
        {shownError && (
          <p id={errorId} className="basis-full font-semibold text-red-700 sm:text-right">
            {shownError}
          </p>
        )}
      </form>
    </div>
  );
}
