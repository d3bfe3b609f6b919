import type { ReactNode } from 'react';
import { cn } from './cn';

interface StatTileProps {
  label: string;
  /** The figure, already formatted for people. */
  value: ReactNode;
  /** A line under the figure: what it counts, or a comparison. */
  hint?: ReactNode;
  /** The change against the previous period (a ChangeBadge), beside the figure. */
  change?: ReactNode;
  /** True while the figure's request runs: a pulsing placeholder instead of the value. */
  isLoading?: boolean;
  /** True when the request failed: a dash instead of a stale or invented number. */
  isError?: boolean;
  className?: string;
}

/** A KPI tile (slate-50, indigo label, large bold number), as in the spec-era console. Place tiles in a `<dl>`. */
export function StatTile({
  label,
  value,
  hint,
  change,
  isLoading = false,
  isError = false,
  className,
}: StatTileProps) {
  return (
    <div
      aria-busy={isLoading}
      className={cn(
        'flex min-w-0 flex-col gap-1 rounded-xl bg-slate-50 p-4 ring-1 ring-inset ring-slate-200',
        className,
      )}
    >
      <dt className="text-[0.7rem] font-semibold uppercase tracking-wide text-indigo-700">{label}</dt>
      <dd className="flex flex-col gap-1">
        {isLoading ? (
          <>
            <span className="sr-only">Loading</span>
            <span
              aria-hidden="true"
              data-testid="tile-skeleton"
              className="my-1 h-7 w-20 animate-pulse rounded-md bg-slate-200"
            />
          </>
        ) : (
          <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5">
            <p className="min-w-0 truncate text-2xl font-bold text-slate-900 tabular-nums">
              {isError ? '—' : value}
            </p>
            {!isError && change}
          </div>
        )}
        {hint && !isLoading && (
          <span className="text-xs text-slate-500">{isError ? 'Could not load' : hint}</span>
        )}
      </dd>
    </div>
  );
}
