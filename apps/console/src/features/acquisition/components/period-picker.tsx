import { useId } from 'react';
import { cn } from '../../../components/ui/cn';
import { PeriodChips, type PeriodSelection, selectionDays } from '../lib/period';

interface PeriodPickerProps {
  selection: PeriodSelection;
  onChange: (selection: PeriodSelection) => void;
  /** Names the group for screen readers, e.g. "Attribution period". */
  label: string;
  showChips?: boolean;
  className?: string;
}

const dateLabel = 'w-10 text-xs font-semibold uppercase tracking-wide text-slate-500 sm:w-auto';
const dateInput =
  'h-9 w-40 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-800 focus:outline-2 focus:outline-indigo-500';

/**
 * Two date inputs (UTC days, both included) and the chips of spec §9 (Today, Yesterday, Week, Month, 90D,
 * 6M); a chip or a date edit replaces the whole range. The shared PeriodFilter names its chips 7D/30D.
 */
export function PeriodPicker({ selection, onChange, label, showChips = true, className }: PeriodPickerProps) {
  const id = useId();
  const isActive = (chipId: string) => selection.kind === 'preset' && selection.id === chipId;
  const { from, to } = selectionDays(selection);
  const setDay = (which: 'from' | 'to', day: string) => {
    if (!day) return;
    // Keep the range the right way round: moving one end past the other moves both.
    const days =
      which === 'from' ? { from: day, to: day > to ? day : to } : { from: day < from ? day : from, to: day };
    onChange({ kind: 'custom', ...days });
  };
  return (
    <fieldset className={cn('flex flex-wrap items-center gap-2', className)}>
      <legend className="sr-only">{label}</legend>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <span className="flex items-center gap-1.5">
          <label htmlFor={`${id}-from`} className={dateLabel}>
            From
          </label>
          <input
            id={`${id}-from`}
            type="date"
            className={dateInput}
            value={from}
            max={to}
            onChange={(event) => setDay('from', event.target.value)}
          />
        </span>
        <span className="flex items-center gap-1.5">
          <label htmlFor={`${id}-to`} className={dateLabel}>
            To
          </label>
          <input
            id={`${id}-to`}
            type="date"
            className={dateInput}
            value={to}
            min={from}
            onChange={(event) => setDay('to', event.target.value)}
          />
        </span>
      </div>
      {showChips && (
        <div className="flex flex-wrap gap-1">
          {PeriodChips.map((chip) => (
            <button
              key={chip.id}
              type="button"
              aria-pressed={isActive(chip.id)}
              title={chip.description}
              onClick={() => onChange({ kind: 'preset', id: chip.id })}
              className={cn(
                'h-8 rounded-full px-3 text-xs font-semibold transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                isActive(chip.id)
                  ? 'bg-indigo-700 text-white shadow-sm'
                  : 'bg-indigo-50 text-indigo-800 hover:bg-indigo-100',
              )}
            >
              {chip.label}
            </button>
          ))}
        </div>
      )}
    </fieldset>
  );
}
