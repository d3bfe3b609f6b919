import type { AnalyticsFilterKey } from '@polyflow/contracts/analytics';
import { createContext, type ReactNode, useContext } from 'react';
import { cn } from '../../../components/ui/cn';
import { countryName } from '../../../lib/format';
import type { FilterValue } from '../hooks/use-analytics-filters';
import { chainLabel } from '../lib/chains';

/** Each filter's name on its chip and in the buttons' labels. */
export const FILTER_LABELS: Record<AnalyticsFilterKey, string> = {
  countries: 'Country',
  browsers: 'Browser',
  oses: 'OS',
  devices: 'Device',
  walletProviders: 'Wallet provider',
  chains: 'Chain',
  sources: 'Source',
  mediums: 'Medium',
  campaigns: 'Campaign',
  pages: 'Page',
  referrers: 'Referrer',
};

/** A value as people read it: a country's name, a chain's name. */
export function filterValueLabel(name: AnalyticsFilterKey, value: FilterValue): string {
  if (name === 'countries') return countryName(value);
  if (name === 'chains') return chainLabel(Number(value), false);
  return value;
}

/** What a card's row or bar calls to add its value to the screen's filters; absent: rows are plain. */
export type SelectFilter = (name: AnalyticsFilterKey, value: FilterValue) => void;
const FilterSelectContext = createContext<SelectFilter | null>(null);

export function FilterSelectProvider({ select, children }: { select: SelectFilter; children: ReactNode }) {
  return <FilterSelectContext.Provider value={select}>{children}</FilterSelectContext.Provider>;
}

export const useFilterSelect = () => useContext(FilterSelectContext);

/**
 * A row's label that filters the screen by its value on click (Enter or Space from the keyboard, as any
 * button); plain text where the screen has no filters or the value is unknown (null).
 */
export function FilterButton({
  name,
  value,
  children,
  className,
}: {
  name: AnalyticsFilterKey;
  value: FilterValue | null;
  children: ReactNode;
  className?: string;
}) {
  const select = useFilterSelect();
  if (!select || value === null) return <>{children}</>;
  return (
    <button
      type="button"
      onClick={() => select(name, value)}
      aria-label={`Filter by ${FILTER_LABELS[name]}: ${filterValueLabel(name, value)}`}
      className={cn(
        'cursor-pointer rounded text-left break-words hover:text-indigo-700 hover:underline',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        className,
      )}
    >
      {children}
    </button>
  );
}
