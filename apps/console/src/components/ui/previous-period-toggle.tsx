import { cn } from './cn';

/** The on/off switch of a chart's previous-period overlay (a toggle button: aria-pressed). */
export function PreviousPeriodToggle({
  chart,
  isOn,
  onChange,
}: {
  /** The chart's title, for the accessible name. */
  chart: string;
  isOn: boolean;
  onChange: (isOn: boolean) => void;
}) {
  return (
    <button
      type="button"
      aria-pressed={isOn}
      aria-label={`Compare ${chart} with the previous period`}
      onClick={() => onChange(!isOn)}
      className={cn(
        'inline-flex h-8 shrink-0 items-center gap-1.5 rounded-lg px-2 text-xs font-semibold transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        isOn ? 'bg-indigo-100 text-indigo-900' : 'text-indigo-800 hover:bg-indigo-50',
      )}
    >
      <svg aria-hidden="true" width="16" height="6">
        <line x1="0" y1="3" x2="16" y2="3" stroke="currentColor" strokeWidth="2" strokeDasharray="4 3" />
      </svg>
      Previous period
    </button>
  );
}
