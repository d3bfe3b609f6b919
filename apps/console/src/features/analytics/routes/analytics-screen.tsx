import { hasAnalyticsFilters } from '@polyflow/contracts/analytics';
import type { Project } from '@polyflow/contracts/projects';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DOCS } from '../../../components/docs-links';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Card, CardHeader } from '../../../components/ui/card';
import { CsvScope } from '../../../components/ui/download-csv-button';
import { PeriodFilter } from '../../../components/ui/period-filter';
import { describePeriod, resolvePeriod } from '../../../components/ui/periods';
import { usePeriod } from '../../../hooks/use-period';
import { canManage } from '../../../lib/roles';
import type { AnalyticsRange } from '../api/analytics-keys';
import { useOverview } from '../api/get-overview';
import { type AnalyticsTab, AnalyticsTabs } from '../components/analytics-tabs';
import { FilterChips } from '../components/filter-chips';
import { FilterSelectProvider } from '../components/filter-select';
import { MetricsTab } from '../components/metrics-tab';
import { OverviewTiles } from '../components/overview-tiles';
import { TransactionHistory } from '../components/transaction-history';
import { useFilterActions } from '../hooks/use-filter-actions';

/**
 * Spec "Analytics screen": the overview card (period filter, seven tiles, tabs) over data computed by
 * the server. The period, the filters and the tab live in the URL; every query key holds the project id,
 * so choosing another project asks everything again. Clicking a row or bar of a card adds its value to
 * the filters (docs/analytics.md, "Filters"), shown as removable chips; every tile, chart and table of
 * this feature answers for them.
 */
interface AnalyticsScreenProps {
  project: Project;
  configPath: string;
  /** Cards of other features for the Metrics tab (src/app composes them): first, and beside the gas chart. */
  metricsCards?: (range: AnalyticsRange) => { leading?: ReactNode; besideGas?: ReactNode };
}

export function AnalyticsScreen({ project, configPath, metricsCards }: AnalyticsScreenProps) {
  const [selection, setSelection] = usePeriod();
  const [params, setParams] = useSearchParams();
  const tab: AnalyticsTab = params.get('tab') === 'history' ? 'history' : 'metrics';
  const period = resolvePeriod(selection);
  // Without filters left, focus goes to the card's heading (the chips' bar is gone).
  const { filters, select, remove, clear } = useFilterActions('overview-title');
  const unfiltered: AnalyticsRange = { projectId: project.id, from: period.from, to: period.to };
  // Without filters, the same query keys as before they existed (one cache entry per view).
  const range: AnalyticsRange = hasAnalyticsFilters(filters) ? { ...unfiltered, filters } : unfiltered;
  // The tiles' own request (same key, so no second call): all zero means nothing arrived in the period.
  const overview = useOverview(range);
  const isQuiet =
    overview.data !== undefined &&
    overview.data.totalTransactions === 0 &&
    overview.data.connectedWallets === 0 &&
    overview.data.dailyActiveWallets === 0;

  const selectTab = (next: AnalyticsTab) =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (next === 'metrics') updated.delete('tab');
      else updated.set('tab', next);
      return updated;
    });

  return (
    <FilterSelectProvider select={select}>
      <CsvScope scope={{ project: project.name, screen: 'analytics', from: period.from, to: period.to }}>
        <div className="flex animate-panel flex-col gap-4">
          <PageHeader
            eyebrow={project.name}
            title="Analytics"
            help={{ href: DOCS.analytics, topic: 'what every number means' }}
          />
          <Card aria-labelledby="overview-title">
            {/* Not CardHeader's actions slot: that one never shrinks, and the filter must wrap on a phone. */}
            <div className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
              <CardHeader
                titleId="overview-title"
                eyebrow="Wallets & transactions"
                title="Overview"
                description={<span data-testid="period-label">{describePeriod(selection)}</span>}
              />
              <PeriodFilter value={selection} onChange={setSelection} className="mb-4" />
            </div>
            <FilterChips filters={filters} onRemove={remove} onClear={clear} />
            <OverviewTiles range={range} />
            {isQuiet && (
              <Alert className="mt-3">
                No wallet activity in this period. Try a longer period, or, for a new project, install the SDK
                and test the integration in{' '}
                <Link to={configPath} className="font-semibold underline">
                  SDK settings
                </Link>
                .
              </Alert>
            )}
            <AnalyticsTabs value={tab} onChange={selectTab} className="mt-6" />
          </Card>
          <div role="tabpanel" id={`analytics-panel-${tab}`} aria-labelledby={`analytics-tab-${tab}`}>
            {tab === 'metrics' ? (
              <>
                {/* The panel's heading, as Transaction History has one: its cards' h3 sit under it, not
                    under Overview (WCAG 1.3.1). The tab above already shows the name. */}
                <h2 id="analytics-metrics-title" className="sr-only">
                  Metrics
                </h2>
                {/* Other features' cards (the Wallets cards) take the filters too (docs/wallets.md). */}
                <MetricsTab
                  range={range}
                  granularity={period.granularity}
                  canManageGoals={canManage(project.role)}
                  {...metricsCards?.(range)}
                />
              </>
            ) : (
              <Card>
                <CardHeader title="Transaction History" eyebrow="Transactions" />
                <TransactionHistory range={range} />
              </Card>
            )}
          </div>
        </div>
      </CsvScope>
    </FilterSelectProvider>
  );
}
