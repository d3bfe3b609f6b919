import { type ReactNode, useId } from 'react';
import { Button } from './button';
import { cn } from './cn';
import { BarChart3, RotateCw, TriangleAlert } from './icons';

export type ChartStatus = 'pending' | 'error' | 'success';

interface ChartCardProps {
  title: string;
  /** Small uppercase line above the title, e.g. the unit. */
  eyebrow?: string;
  status: ChartStatus;
  /** With status success: nothing to draw, so the empty message shows instead of the chart. */
  isEmpty?: boolean;
  emptyText?: string;
  errorText?: string | undefined;
  onRetry?: () => void;
  /** The chart; rendered only on success with data. */
  children: ReactNode;
  /** Height of the chart area (and of its skeleton), so the layout does not jump. */
  heightClass?: string;
  /** Controls beside the title (Download CSV, the previous-period toggle); they wrap under it on a phone. */
  actions?: ReactNode;
  className?: string;
}

/** A white card around a chart or table with its loading skeleton, empty message and error with retry. */
export function ChartCard({
  title,
  eyebrow,
  status,
  isEmpty = false,
  emptyText = 'No transactions in this period',
  errorText,
  onRetry,
  children,
  heightClass = 'h-64',
  actions,
  className,
}: ChartCardProps) {
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      aria-busy={status === 'pending'}
      className={cn(
        'flex min-w-0 flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-900/5',
        className,
      )}
    >
      <header className="mb-3 flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <div className="min-w-0">
          {eyebrow && (
            <p className="text-[0.7rem] font-semibold uppercase tracking-widest text-indigo-600">{eyebrow}</p>
          )}
          <h3 id={titleId} className="text-sm font-bold text-slate-900">
            {title}
          </h3>
        </div>
        {actions && <div className="flex flex-wrap items-center gap-1">{actions}</div>}
      </header>
      {status === 'pending' ? (
        <ChartSkeleton heightClass={heightClass} />
      ) : status === 'error' ? (
        <div
          role="alert"
          className={cn(
            'flex flex-col items-center justify-center gap-3 rounded-xl bg-red-50 p-4 text-center text-sm text-red-800',
            heightClass,
          )}
        >
          <TriangleAlert aria-hidden="true" className="size-5" />
          <p>{errorText ?? 'Could not load this chart.'}</p>
          {onRetry && (
            <Button size="sm" variant="secondary" onClick={onRetry}>
              <RotateCw aria-hidden="true" className="size-3.5" /> Retry
            </Button>
          )}
        </div>
      ) : isEmpty ? (
        <div
          className={cn(
            'flex flex-col items-center justify-center gap-2 rounded-xl bg-slate-50 p-4 text-center text-sm text-slate-600 ring-1 ring-inset ring-slate-200',
            heightClass,
          )}
        >
          <BarChart3 aria-hidden="true" className="size-5 text-indigo-300" />
          <p>{emptyText}</p>
        </div>
      ) : (
        children
      )}
    </section>
  );
}

/** The placeholder while data or the chart code loads (also the Suspense fallback of lazy charts). */
export function ChartSkeleton({ heightClass = 'h-64' }: { heightClass?: string }) {
  return (
    <div
      role="status"
      aria-busy="true"
      className={cn(
        'flex items-end gap-2 rounded-xl bg-slate-50 p-4 ring-1 ring-inset ring-slate-100',
        heightClass,
      )}
    >
      <span className="sr-only">Loading chart</span>
      {[40, 65, 50, 80, 60, 72, 45].map((height, index) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: static decoration.
          key={index}
          aria-hidden="true"
          style={{ height: `${height}%` }}
          className="flex-1 animate-pulse rounded-t-md bg-slate-200"
        />
      ))}
    </div>
  );
}
