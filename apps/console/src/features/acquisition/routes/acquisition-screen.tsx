import type { Project } from '@polyflow/contracts/projects';
import { useId } from 'react';
import { DOCS } from '../../../components/docs-links';
import { NoDataYet } from '../../../components/no-data-yet';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Card, CardHeader } from '../../../components/ui/card';
import { CsvScope, DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { PeriodFilter } from '../../../components/ui/period-filter';
import { describePeriod, resolvePeriod } from '../../../components/ui/periods';
import { Spinner } from '../../../components/ui/spinner';
import { useAcquisitionFilterOptions } from '../api/get-acquisition-filter-options';
import { useAcquisitionFunnel } from '../api/get-acquisition-funnel';
import { AttributionCard } from '../components/attribution-card';
import { FilterBar } from '../components/filter-bar';
import { FunnelTiles } from '../components/funnel-tiles';
import { useAcquisitionView } from '../hooks/use-acquisition-view';
import { funnelCsv } from '../lib/acquisition-csv';

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * The funnel and the attribution table share one view: the period and the filters, kept in the URL
 * (see use-acquisition-view) so the address bar is a shareable link to exactly this view.
 */
export function AcquisitionScreen({ project, configPath }: { project: Project; configPath: string }) {
  const titleId = useId();
  const { view, setSelection, setFilter, clearFilters, setDimension, setSort } = useAcquisitionView();
  const { from, to } = resolvePeriod(view.selection);
  const range = { from, to };
  const funnel = useAcquisitionFunnel({ projectId: project.id, filters: view.filters, ...range });
  const previousFunnel = useAcquisitionFunnel({
    projectId: project.id,
    filters: view.filters,
    ...range,
    previous: true,
  });
  // A previous answer kept from other filters while new ones load would compare unlike with unlike.
  const previousSteps = previousFunnel.isPlaceholderData ? undefined : previousFunnel.data?.steps;
  const options = useAcquisitionFilterOptions({ projectId: project.id, ...range });
  const hasFilters = Object.keys(view.filters).length > 0;
  const steps = funnel.data?.steps;
  const hasNoUsers = steps !== undefined && (steps[0]?.users ?? 0) === 0;

  return (
    <CsvScope scope={{ project: project.name, screen: 'acquisition', from, to }}>
      <div className="flex animate-panel flex-col gap-4">
        <PageHeader
          eyebrow={project.name}
          title="User Acquisition"
          help={{ href: DOCS.acquisition, topic: 'how acquisition is counted' }}
        >
          {/* One period for both cards: the funnel and the attributions always describe the same days. */}
          <PeriodFilter value={view.selection} onChange={setSelection} />
        </PageHeader>
        <Card aria-labelledby={titleId}>
          <div className="flex flex-wrap items-start justify-between gap-2">
            <CardHeader
              titleId={titleId}
              eyebrow="Funnel"
              title="User behavior"
              description={`Distinct users, ${lowerFirst(describePeriod(view.selection))}, and the previous period's.`}
            />
            <DownloadCsvButton
              table="Funnel"
              build={() => funnelCsv(steps ?? [], previousSteps)}
              disabled={!steps || funnel.isPlaceholderData}
            />
          </div>
          <FilterBar
            filters={view.filters}
            onFilterChange={setFilter}
            onClear={clearFilters}
            options={options.data}
            isLoadingOptions={options.isPending}
          />
          {funnel.isError ? (
            <Alert tone="error">
              Could not load the funnel: {funnel.error.message}{' '}
              <button type="button" className="font-semibold underline" onClick={() => funnel.refetch()}>
                Try again
              </button>
            </Alert>
          ) : !steps ? (
            <p className="flex items-center gap-2 py-8 text-sm text-slate-500" role="status">
              <Spinner /> Loading the funnel…
            </p>
          ) : hasNoUsers && !hasFilters && !funnel.isPlaceholderData ? (
            <NoDataYet configPath={configPath}>
              No visits in this period. Pick a longer period, or wait for the SDK to report visits.
            </NoDataYet>
          ) : (
            <>
              {hasNoUsers && (
                <p className="mb-3 text-sm text-slate-600" role="status">
                  No users match these filters in this period.
                </p>
              )}
              <FunnelTiles
                steps={steps}
                previousSteps={previousSteps}
                isRefreshing={funnel.isPlaceholderData}
              />
            </>
          )}
        </Card>
        <AttributionCard
          projectId={project.id}
          selection={view.selection}
          filters={view.filters}
          dimension={view.dimension}
          onDimensionChange={setDimension}
          sort={view.sort}
          onSortChange={setSort}
        />
      </div>
    </CsvScope>
  );
}
