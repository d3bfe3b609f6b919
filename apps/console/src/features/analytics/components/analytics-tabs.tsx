import { type KeyboardEvent, useRef } from 'react';
import { cn } from '../../../components/ui/cn';

export type AnalyticsTab = 'metrics' | 'history';
const TABS: Array<{ id: AnalyticsTab; label: string }> = [
  { id: 'metrics', label: 'Metrics' },
  { id: 'history', label: 'Transaction History' },
];

/** Metrics (default) and Transaction History; arrow keys move between them (WAI-ARIA tabs). */
export function AnalyticsTabs({
  value,
  onChange,
  className,
}: {
  value: AnalyticsTab;
  onChange: (tab: AnalyticsTab) => void;
  className?: string;
}) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next = (index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length;
    const tab = TABS[next];
    if (!tab) return;
    onChange(tab.id);
    refs.current[next]?.focus();
  };
  return (
    <div
      role="tablist"
      aria-label="Analytics views"
      className={cn('flex gap-1 border-b border-slate-200', className)}
    >
      {TABS.map((tab, index) => {
        const isActive = tab.id === value;
        return (
          <button
            key={tab.id}
            ref={(element) => {
              refs.current[index] = element;
            }}
            id={`analytics-tab-${tab.id}`}
            type="button"
            role="tab"
            aria-selected={isActive}
            aria-controls={isActive ? `analytics-panel-${tab.id}` : undefined}
            tabIndex={isActive ? 0 : -1}
            onClick={() => onChange(tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={cn(
              '-mb-px border-b-2 px-4 py-2 text-sm font-semibold transition-colors',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
              isActive
                ? 'border-indigo-700 text-indigo-800'
                : 'border-transparent text-slate-500 hover:text-indigo-700',
            )}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
