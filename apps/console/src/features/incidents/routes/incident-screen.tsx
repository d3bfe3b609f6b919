import type { Project } from '@polyflow/contracts/projects';
import { Link, useSearchParams } from 'react-router';
import { DOCS } from '../../../components/docs-links';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { CsvScope } from '../../../components/ui/download-csv-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ArrowLeft, SearchX } from '../../../components/ui/icons';
import { describePeriod, periodFromSearchParams, resolvePeriod } from '../../../components/ui/periods';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { canManage, VIEWER_HINT } from '../../../lib/roles';
import { useIncident } from '../api/get-incident';
import { AssigneeControl } from '../components/assignee-control';
import { ErrorLogCard } from '../components/error-log-card';
import { IncidentOverview } from '../components/incident-overview';
import { WalletStateCard } from '../components/wallet-state-card';
import { DEFAULT_INCIDENT_PERIOD } from '../hooks/use-incidents-view';

interface IncidentScreenProps {
  project: Project;
  incidentId: string;
  /** The signed-in user's email (who "me" is when assigning). */
  email?: string;
  listPath: string;
  configPath: string;
}

/**
 * Opened from the list, the URL carries the list's period: the latest occurrence shown is then the one the
 * list row described. A bare link (shared, bookmarked) covers all time.
 */
export function IncidentScreen({ project, incidentId, email = '', listPath }: IncidentScreenProps) {
  const [params] = useSearchParams();
  const hasPeriod = params.has('period');
  const selection = hasPeriod ? periodFromSearchParams(params, DEFAULT_INCIDENT_PERIOD) : null;
  const period = selection ? resolvePeriod(selection) : null;
  const range = period ? { from: period.from, to: period.to } : { from: null, to: null };
  const incident = useIncident({ projectId: project.id, id: incidentId, ...range });
  const backSearch = params.toString();
  // No such incident: the server answers null for an id it does not know, and refuses one that is no
  // incident id at all (400 BAD_USER_INPUT): both are a wrong link, not a failure to retry.
  const isMalformed =
    incident.error instanceof ApiError &&
    (incident.error.errorCode === 'BAD_USER_INPUT' || incident.error.status === 400);
  const isNotFound = incident.data === null || isMalformed;

  return (
    <div className="flex animate-panel flex-col gap-4">
      <Link
        to={{ pathname: listPath, search: backSearch }}
        className="inline-flex items-center gap-1 self-start text-sm font-semibold text-indigo-700"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All incidents
      </Link>
      {!isNotFound && (
        <PageHeader
          eyebrow={project.name}
          title="Incident"
          help={{ href: DOCS.incidents, topic: 'how incidents are grouped and counted' }}
        />
      )}
      {isNotFound ? (
        <EmptyState
          icon={<SearchX aria-hidden="true" className="size-6" />}
          title="Incident not found"
          isPageHeading
        >
          <p>
            {isMalformed ? (
              <>
                <span className="font-mono break-all">{incidentId}</span> is not an incident id. Open an
                incident from the list, or check the link you followed.
              </>
            ) : (
              <>
                This project has no incident <span className="font-mono break-all">{incidentId}</span>
                {hasPeriod ? ' in the chosen period' : ''}. It may belong to another project.
              </>
            )}
          </p>
          <Link
            to={{ pathname: listPath, search: backSearch }}
            className="mt-3 inline-flex items-center gap-1 font-semibold text-indigo-700 underline"
          >
            Back to the incident list
          </Link>
        </EmptyState>
      ) : incident.isError ? (
        <Alert tone="error">
          Could not load the incident: {incident.error.message}{' '}
          <button type="button" className="font-semibold underline" onClick={() => incident.refetch()}>
            Try again
          </button>
        </Alert>
      ) : incident.isPending ? (
        <p className="flex items-center gap-2 py-8 text-sm text-slate-500" role="status">
          <Spinner /> Loading the incident…
        </p>
      ) : !incident.data ? null : (
        // The files cover the period the figures do: the list's, or the incident's whole span.
        <CsvScope
          scope={{
            project: project.name,
            screen: 'incident',
            from: incident.data.from,
            to: incident.data.to,
          }}
        >
          <IncidentOverview
            incident={incident.data}
            projectId={project.id}
            statusLock={canManage(project.role) ? null : VIEWER_HINT}
            assignment={
              <AssigneeControl
                projectId={project.id}
                incidentId={incident.data.id}
                assignee={incident.data.assignee ?? null}
                role={project.role}
                email={email}
              />
            }
            periodLabel={selection ? describePeriod(selection) : 'All time'}
          />
          <WalletStateCard occurrence={incident.data.latest} />
          <ErrorLogCard occurrence={incident.data.latest} />
        </CsvScope>
      )}
    </div>
  );
}
