import { type FunnelStep, FunnelStepLabels } from '@polyflow/contracts/acquisition';
import { ChangeBadge } from '../../../components/ui/change-badge';
import { cn } from '../../../components/ui/cn';
import { compare } from '../../../lib/comparison';
import { formatPercent } from '../../../lib/format';
import { formatCount } from '../lib/attribution-columns';

/**
 * The six funnel tiles, each a count of distinct users and its share of Total Users, and beside it the
 * previous period's (docs/analytics.md, "The previous period"): Total Users changes relatively, every other
 * step's conversion in percentage points.
 */
export function FunnelTiles({
  steps,
  previousSteps,
  isRefreshing,
}: {
  steps: readonly FunnelStep[];
  /** The previous period's steps; undefined while they load. */
  previousSteps?: readonly FunnelStep[] | undefined;
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
        const before = previousSteps?.find((candidate) => candidate.key === step.key);
        const isTotal = step.key === 'totalUsers';
        const comparison = before
          ? isTotal
            ? compare(step.users, before.users, 'relative')
            : compare(step.share, before.share, 'points')
          : null;
        return (
          <li
            key={step.key}
            aria-label={label}
            className="flex min-w-0 flex-col rounded-xl bg-slate-50 p-3.5 ring-1 ring-inset ring-slate-200"
          >
            <p className="min-h-8 text-[0.7rem] font-semibold uppercase leading-tight tracking-wide text-indigo-700">
              {label}
            </p>
            <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-0.5">
              <p className="text-2xl font-bold text-slate-900 tabular-nums">{formatCount(step.users)}</p>
              {comparison && <ChangeBadge comparison={comparison} better="up" />}
            </div>
            <p className="mt-0.5 text-xs text-slate-600">
              <span className="font-semibold text-slate-800">{formatPercent(step.share)}</span> of Total Users
            </p>
            {before && (
              <p className="text-xs text-slate-500" data-testid="previous-conversion">
                Previous: {isTotal ? formatCount(before.users) : formatPercent(before.share)}
              </p>
            )}
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
