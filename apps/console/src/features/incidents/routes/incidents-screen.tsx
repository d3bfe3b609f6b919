import type { Project } from '@polyflow/contracts/projects';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { DOCS } from '../../../components/docs-links';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { CsvScope, DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ShieldCheck } from '../../../components/ui/icons';
import { PeriodFilter } from '../../../components/ui/period-filter';
import { describePeriod, periodToSearchParams, resolvePeriod } from '../../../components/ui/periods';
import { Spinner } from '../../../components/ui/spinner';
import { countOf } from '../../../lib/format';
import { useAssignableMembers } from '../api/get-assignable-members';
import { INCIDENT_PAGE_SIZE, useIncidents } from '../api/get-incidents';
import { AssigneeFilter } from '../components/assignee-filter';
import { IncidentSearch } from '../components/incident-search';
import { IncidentSummary } from '../components/incident-summary';
import { IncidentTable } from '../components/incident-table';
import { ReleaseFilter } from '../components/release-filter';
import { StatusFilter } from '../components/status-filter';
import { useIncidentsView } from '../hooks/use-incidents-view';
import { incidentsCsv } from '../lib/incidents-csv';

export function IncidentsScreen({ project, configPath }: { project: Project; configPath: string }) {
  const titleId = useId();
  const { view, params, setSelection, setSearch, toggleSeverity, setStatus, setAssignee, setRelease } =
    useIncidentsView();
  const members = useAssignableMembers(project.id);
  const { from, to } = resolvePeriod(view.selection);
  const range = { from, to };
  const queryKey = JSON.stringify([
    range,
    view.search,
    view.severities,
    view.status,
    view.assignee,
    view.release,
  ]);
  // Cursors of the pages before the current one; a new query starts again at page one.
  const [pages, setPages] = useState<{ key: string; cursors: Array<string | null> }>({
    key: queryKey,
    cursors: [null],
  });
  const cursors = pages.key === queryKey ? pages.cursors : [null];
  const after = cursors[cursors.length - 1] ?? null;
  const incidents = useIncidents({
    projectId: project.id,
    ...range,
    search: view.search,
    severities: view.severities,
    status: view.status,
    release: view.release,
    after,
    assignee: view.assignee,
  });
  const list = incidents.data;
  const pageStart = (cursors.length - 1) * INCIDENT_PAGE_SIZE;
  const isFiltered =
    view.search !== '' || view.severities.length > 0 || view.assignee !== null || view.release !== '';

  return (
    <CsvScope scope={{ project: project.name, screen: 'incidents', from, to }}>
      <div className="flex animate-panel flex-col gap-4">
        <PageHeader
          eyebrow={project.name}
          title="Incident Tracking"
          help={{ href: DOCS.incidents, topic: 'how incidents are grouped and counted' }}
        />
        <Card aria-labelledby={titleId}>
          <CardHeader
            titleId={titleId}
            eyebrow={describePeriod(view.selection)}
            title="Incidents"
            description="Frontend errors, unhandled rejections and failed wallet calls, grouped by cause."
          />
          <PeriodFilter value={view.selection} onChange={setSelection} className="mb-4 sm:items-start" />
          {incidents.isError && !list ? (
            <Alert tone="error">
              Could not load the incidents: {incidents.error.message}{' '}
              <button type="button" className="font-semibold underline" onClick={() => incidents.refetch()}>
                Try again
              </button>
            </Alert>
          ) : !list ? (
            <p className="flex items-center gap-2 py-8 text-sm text-slate-500" role="status">
              <Spinner /> Loading incidents…
            </p>
          ) : (
            <div className="flex flex-col gap-4">
              <StatusFilter value={view.status} counts={list.byStatus} onChange={setStatus} />
              <IncidentSummary list={list} selected={view.severities} onToggleSeverity={toggleSeverity} />
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div className="flex w-full flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center lg:w-auto lg:flex-1">
                  <IncidentSearch value={view.search} onSearch={setSearch} />
                  <AssigneeFilter value={view.assignee} members={members.data ?? []} onChange={setAssignee} />
                  <ReleaseFilter value={view.release} onChange={setRelease} />
                </div>
                <div className="flex items-center gap-2">
                  <p className="text-sm text-slate-600" role="status">
                    {isFiltered
                      ? `${list.matching.toLocaleString('en-US')} of ${countOf(list.totalIncidents, 'incident')} ${list.matching === 1 ? 'matches' : 'match'}`
                      : countOf(list.totalIncidents, 'incident')}
                  </p>
                  <DownloadCsvButton
                    table={`Incidents (${view.status})`}
                    build={() => incidentsCsv(list.rows)}
                    disabled={incidents.isPlaceholderData}
                  />
                </div>
              </div>
              {incidents.isError && <Alert tone="error">Could not refresh: {incidents.error.message}</Alert>}
              {list.rows.length === 0 ? (
                <EmptyState
                  icon={<ShieldCheck aria-hidden="true" className="size-6" />}
                  title={
                    isFiltered
                      ? 'No incident matches'
                      : view.status === 'open'
                        ? 'No open incidents in this period'
                        : `No ${view.status} incidents in this period`
                  }
                >
                  {isFiltered ? (
                    'Try another search, severity, assignee or release.'
                  ) : (
                    <>
                      Errors reported by the SDK show up here. Check the{' '}
                      <Link to={configPath} className="font-semibold text-indigo-700 underline">
                        SDK settings
                      </Link>{' '}
                      if you expected some.
                    </>
                  )}
                </EmptyState>
              ) : (
                <IncidentTable
                  rows={list.rows}
                  linkSearch={periodToSearchParams(view.selection, params).toString()}
                  isRefreshing={incidents.isPlaceholderData}
                />
              )}
              {(list.nextCursor !== null || cursors.length > 1) && (
                <nav
                  aria-label="Pages"
                  className="flex items-center justify-between gap-2 text-sm text-slate-600"
                >
                  <span>
                    {pageStart + 1}–{pageStart + list.rows.length} of {list.matching.toLocaleString('en-US')}
                  </span>
                  <div className="flex gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={cursors.length <= 1 || incidents.isPlaceholderData}
                      onClick={() => setPages({ key: queryKey, cursors: cursors.slice(0, -1) })}
                    >
                      Previous
                    </Button>
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={list.nextCursor === null || incidents.isPlaceholderData}
                      onClick={() => setPages({ key: queryKey, cursors: [...cursors, list.nextCursor] })}
                    >
                      Next
                    </Button>
                  </div>
                </nav>
              )}
            </div>
          )}
        </Card>
      </div>
    </CsvScope>
  );
}
