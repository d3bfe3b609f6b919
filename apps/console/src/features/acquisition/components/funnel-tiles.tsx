import { type FunnelStep, FunnelStepLabels } from '@polyflow/contracts/acquisition';
import { cn } from '../../../components/ui/cn';
import { formatCount, formatRate } from '../lib/attribution-columns';

/** The six funnel tiles, each a count of distinct users and its share of Total Users. */
export function FunnelTiles({
  steps,
  isRefreshing,
}: {
  steps: readonly FunnelStep[];
  isRefreshing: boolean;
}) {
  return (
    <ul
      aria-label="Funnel"
      aria-busy={isRefreshing || undefined}
      className={cn(
        'grid grid-cols-2 gap-3 transition-opacity md:grid-cols-3 xl:grid-cols-6',
        isRefreshing && 'opacity-60',
      )}
    >
      {steps.map((step) => {
        const label = FunnelStepLabels[step.key] ?? step.label;
        return (
          <li
            key={step.key}
            aria-label={label}
            className="flex flex-col rounded-xl bg-slate-50 p-3.5 ring-1 ring-inset ring-slate-200"
          >
            <p className="min-h-8 text-[0.7rem] font-semibold uppercase leading-tight tracking-wide text-indigo-700">
              {label}
            </p>
            <p className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">{formatCount(step.users)}</p>
            <p className="mt-0.5 text-xs text-slate-600">
              <span className="font-semibold text-slate-800">{formatRate(step.share)}</span> of Total Users
            </p>
            <div aria-hidden="true" className="mt-2 h-1.5 overflow-hidden rounded-full bg-indigo-100">
              <div
                className="h-full rounded-full bg-indigo-600"
                style={{ width: `${(step.share ?? 0) * 100}%` }}
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
