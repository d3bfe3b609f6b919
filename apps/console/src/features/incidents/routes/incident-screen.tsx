import { type IncidentDetail, IncidentTypeLabels } from '@polyflow/contracts/incidents';
import type { Project } from '@polyflow/contracts/projects';
import { ArrowLeft, SearchX } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Card, CardHeader } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { periodFromSearchParams, resolvePeriod } from '../../../components/ui/periods';
import { Spinner } from '../../../components/ui/spinner';
import { useIncident } from '../api/get-incident';
import { ErrorLogCard } from '../components/error-log-card';
import { SeverityBadge } from '../components/severity-badge';
import { WalletStateCard } from '../components/wallet-state-card';
import { DEFAULT_INCIDENT_PERIOD } from '../hooks/use-incidents-view';
import { formatDateTime } from '../lib/format';

interface IncidentScreenProps {
  project: Project;
  incidentId: string;
  listPath: string;
  configPath: string;
}

/**
 * Opened from the list, the URL carries the list's period: the latest occurrence shown is then the one the
 * list row described. A bare link (shared, bookmarked) covers all time.
 */
export function IncidentScreen({ project, incidentId, listPath }: IncidentScreenProps) {
  const [params] = useSearchParams();
  const hasPeriod = params.has('period');
  const period = hasPeriod ? resolvePeriod(periodFromSearchParams(params, DEFAULT_INCIDENT_PERIOD)) : null;
  const range = period ? { from: period.from, to: period.to } : { from: null, to: null };
  const incident = useIncident({ projectId: project.id, id: incidentId, ...range });
  const backSearch = params.toString();

  return (
    <div className="flex animate-panel flex-col gap-4">
      <Link
        to={{ pathname: listPath, search: backSearch }}
        className="inline-flex items-center gap-1 self-start text-sm font-semibold text-indigo-700"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All incidents
      </Link>
      <PageHeader eyebrow={project.name} title="Incident" />
      {incident.isError ? (
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
      ) : incident.data === null ? (
        <EmptyState icon={<SearchX aria-hidden="true" className="size-6" />} title="Incident not found">
          This project has no incident {incidentId}
          {hasPeriod ? ' in the chosen period' : ''}.
        </EmptyState>
      ) : (
        <>
          <IncidentOverview incident={incident.data} />
          <WalletStateCard occurrence={incident.data.latest} />
          <ErrorLogCard occurrence={incident.data.latest} />
        </>
      )}
    </div>
  );
}

function IncidentOverview({ incident }: { incident: IncidentDetail }) {
  // The latest occurrence may have come before a connection: then name the wallet last affected.
  const wallet = incident.latest.wallet ?? incident.wallet;
  const isEarlierWallet = incident.latest.wallet === null && wallet !== null;
  const facts: Array<[string, string]> = [
    ['Occurrences', incident.occurrences.toLocaleString('en-US')],
    ['Affected wallets', incident.affectedWallets.toLocaleString('en-US')],
    ['Affected users', incident.affectedUsers.toLocaleString('en-US')],
    ['Failed transactions', incident.failedTransactions.toLocaleString('en-US')],
    ['First seen', formatDateTime(incident.firstSeen)],
    ['Last seen', formatDateTime(incident.lastSeen)],
  ];
  return (
    <Card aria-labelledby="incident-title">
      <CardHeader
        titleId="incident-title"
        eyebrow={IncidentTypeLabels[incident.type]}
        title={incident.title}
        actions={<SeverityBadge severity={incident.severity} className="text-sm" />}
      />
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Incident ID</dt>
          <dd className="truncate font-mono text-slate-800" title={incident.id}>
            {incident.id}
          </dd>
        </div>
        <div>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Time</dt>
          <dd className="text-slate-800">
            <time dateTime={incident.latest.time}>{formatDateTime(incident.latest.time)}</time>
          </dd>
        </div>
        <div>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Severity</dt>
          <dd className="text-slate-800">
            <SeverityBadge severity={incident.severity} />
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">User wallet</dt>
          <dd className="flex min-w-0 items-center gap-2">
            {wallet ? (
              <>
                <span className="truncate font-mono text-slate-800" title={wallet}>
                  {wallet}
                </span>
                <CopyButton text={wallet} label="Copy wallet address" className="size-7" />
                {isEarlierWallet && (
                  <span className="shrink-0 text-xs text-slate-500">(not connected at this occurrence)</span>
                )}
              </>
            ) : (
              <span className="text-slate-500">No wallet connected</span>
            )}
          </dd>
        </div>
      </dl>
      <dl className="mt-4 grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        {facts.map(([label, value]) => (
          <div key={label} className="rounded-xl bg-slate-50 p-3 ring-1 ring-inset ring-slate-200">
            <dt className="text-[0.7rem] font-semibold uppercase tracking-wide text-indigo-700">{label}</dt>
            <dd className="mt-1 text-base font-bold text-slate-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
