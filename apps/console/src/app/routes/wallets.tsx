import { AnalyticsFilterKeys } from '@polyflow/contracts/analytics';
import { FilterChips } from '../../features/analytics/components/filter-chips';
import { FILTER_LABELS, filterValueLabel } from '../../features/analytics/components/filter-select';
import { useAnalyticsFilters } from '../../features/analytics/hooks/use-analytics-filters';
import { WalletsScreen } from '../../features/wallets/routes/wallets-screen';
import { useConsoleContext } from './console-outlet';

/**
 * The Wallets list, with the Analytics screen's filters when the URL carries them (a lifecycle count's
 * link from a filtered Analytics screen: docs/wallets.md), shown as the same removable chips.
 */
export function WalletsPage() {
  const { project, basePath } = useConsoleContext();
  const { filters, removeFilter, clearFilters } = useAnalyticsFilters();
  const description = AnalyticsFilterKeys.flatMap((name) =>
    (filters[name] ?? []).map((value) => `${FILTER_LABELS[name]}: ${filterValueLabel(name, String(value))}`),
  ).join('; ');
  return (
    <WalletsScreen
      project={project}
      walletPath={(address) => `${basePath}/wallets/${address}`}
      screenFilters={{
        filters,
        chips: <FilterChips filters={filters} onRemove={removeFilter} onClear={clearFilters} />,
        description,
      }}
    />
  );
}
