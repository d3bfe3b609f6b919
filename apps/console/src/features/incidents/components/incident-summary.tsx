import { type IncidentList, Severities, type Severity, SeverityLabels } from '@polyflow/contracts/incidents';
import { cn } from '../../../components/ui/cn';
import { formatPercent } from '../../../lib/format';
import { SeverityTones } from './severity-badge';

interface IncidentSummaryProps {
  list: IncidentList;
  selected: readonly Severity[];
  onToggleSeverity: (severity: Severity) => void;
}

/** Total incidents, the transaction fail rate and the count per severity; a severity filters the table. */
export function IncidentSummary({ list, selected, onToggleSeverity }: IncidentSummaryProps) {
  return (
    <div className="grid gap-3 md:grid-cols-[1fr_1fr_2fr]">
      <Tile label="Total incidents" value={list.totalIncidents.toLocaleString('en-US')} />
      <Tile
        label="Transaction fail rate"
        value={formatPercent(list.transactionFailRate)}
        hint={list.transactionFailRate === null ? 'No transactions in this period' : 'Failed or reverted'}
      />
      <div className="rounded-xl bg-slate-50 p-3.5 ring-1 ring-inset ring-slate-200">
        <p className="text-[0.7rem] font-semibold uppercase tracking-wide text-indigo-700" id="by-severity">
          Incidents by severity
        </p>
        <ul aria-labelledby="by-severity" className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
          {Severities.map((severity) => {
            const isSelected = selected.includes(severity);
            return (
              <li key={severity}>
                <button
                  type="button"
                  aria-pressed={isSelected}
                  aria-label={`${SeverityLabels[severity]}: ${list.bySeverity[severity]}`}
                  title={
                    isSelected ? 'Show every severity' : `Show only ${SeverityLabels[severity]} incidents`
                  }
                  onClick={() => onToggleSeverity(severity)}
                  className={cn(
                    'flex w-full flex-col items-start rounded-lg px-2.5 py-1.5 text-left ring-1 ring-inset transition-colors',
                    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                    isSelected ? SeverityTones[severity].badge : 'bg-white ring-slate-200 hover:bg-slate-100',
                  )}
                >
                  <span className="flex items-center gap-1.5 text-xs font-semibold text-slate-600">
                    <span
                      aria-hidden="true"
                      className={cn('size-2 rounded-full', SeverityTones[severity].dot)}
                    />
                    {SeverityLabels[severity]}
                  </span>
                  <span className="text-xl font-bold text-slate-900 tabular-nums">
                    {list.bySeverity[severity].toLocaleString('en-US')}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}

function Tile({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-xl bg-slate-50 p-3.5 ring-1 ring-inset ring-slate-200">
      <p className="text-[0.7rem] font-semibold uppercase tracking-wide text-indigo-700">{label}</p>
      <p className="mt-1 text-3xl font-bold text-slate-900 tabular-nums">{value}</p>
      {hint && <p className="mt-0.5 text-xs text-slate-500">{hint}</p>}
    </div>
  );
}
