import {
  type IncidentStatus,
  IncidentStatuses,
  IncidentStatusLabels,
  type StatusCounts,
} from '@polyflow/contracts/incidents';
import { cn } from '../../../components/ui/cn';

interface StatusFilterProps {
  value: IncidentStatus;
  counts: StatusCounts;
  onChange: (status: IncidentStatus) => void;
}

/** Open (default, regressions included) / Resolved / Ignored, each with its count in the period. */
export function StatusFilter({ value, counts, onChange }: StatusFilterProps) {
  return (
    <fieldset className="flex flex-wrap gap-1 rounded-xl bg-slate-50 p-1 ring-1 ring-inset ring-slate-200 sm:self-start">
      <legend className="sr-only">Status</legend>
      {IncidentStatuses.map((status) => (
        <button
          key={status}
          type="button"
          aria-pressed={value === status}
          onClick={() => onChange(status)}
          className={cn(
            'h-8 rounded-lg px-3 text-xs font-semibold transition-colors',
            'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600',
            value === status ? 'bg-indigo-700 text-white shadow-sm' : 'text-indigo-800 hover:bg-indigo-100',
          )}
        >
          {IncidentStatusLabels[status]}{' '}
          <span className="tabular-nums">({counts[status].toLocaleString('en-US')})</span>
        </button>
      ))}
    </fieldset>
  );
}
