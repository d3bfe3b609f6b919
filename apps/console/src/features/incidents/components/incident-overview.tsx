import { type IncidentDetail, IncidentStatusLabels, IncidentTypeLabels } from '@polyflow/contracts/incidents';
import { type ReactNode, useRef } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { Locked } from '../../../components/ui/locked';
import { WalletLink } from '../../../components/wallet-link';
import { announce, focusSoon } from '../../../lib/announce';
import { formatDateTime } from '../../../lib/format';
import { useSetIncidentStatus } from '../api/set-incident-status';
import {
  type IncidentFact,
  incidentFiguresCsv,
  incidentWallet,
  lifetimeFacts,
  periodFacts,
} from '../lib/incident-csv';
import { RegressionBadge } from './incident-table';
import { SeverityBadge } from './severity-badge';

interface IncidentOverviewProps {
  incident: IncidentDetail;
  projectId: string;
  /** Null when the caller's role may resolve and ignore; else why not (a viewer), shown on hover. */
  statusLock?: string | null;
  /** The list's period the figures of "In this period" cover, e.g. "Last 7 days (…)", or "All time". */
  periodLabel: string;
  /** Who works on it, and the control to change that (the screen composes it). */
  assignment?: ReactNode;
}

/**
 * Who, what and how bad, with the two scopes kept apart: the period the list was looking at, and the
 * incident's whole life (which its severity is decided from). Resolve / Ignore / Reopen live here.
 */
export function IncidentOverview({
  incident,
  projectId,
  periodLabel,
  statusLock = null,
  assignment,
}: IncidentOverviewProps) {
  // The latest occurrence may have come before a connection: then name the wallet last affected.
  const wallet = incidentWallet(incident);
  const isEarlierWallet = incident.latest.wallet === null && wallet !== null;
  return (
    <Card aria-labelledby="incident-title">
      <CardHeader
        titleId="incident-title"
        eyebrow={IncidentTypeLabels[incident.type]}
        title={incident.title}
        actions={
          <Locked reason={statusLock}>
            <StatusActions incident={incident} projectId={projectId} />
          </Locked>
        }
      />
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <Fact label="Incident ID">
          <span className="block font-mono wrap-anywhere">{incident.id}</span>
        </Fact>
        <Fact label="Time of the latest occurrence">
          <time dateTime={incident.latest.time}>{formatDateTime(incident.latest.time)}</time>
        </Fact>
        <Fact label="Severity (from its whole life)">
          <span className="flex flex-wrap items-center gap-1.5">
            <SeverityBadge severity={incident.severity} />
            {incident.isRegression && <RegressionBadge />}
          </span>
        </Fact>
        <Fact label="Status">
          {IncidentStatusLabels[incident.status]}
          {incident.statusChangedAt && incident.status !== 'open'
            ? ` since ${formatDateTime(incident.statusChangedAt)}`
            : ''}
          {incident.isRegression && incident.statusChangedAt
            ? ` (resolved ${formatDateTime(incident.statusChangedAt)}, then it occurred again${incident.resolvedInNextRelease ? ' in a newer release' : ''})`
            : ''}
          {incident.status === 'resolved' && incident.resolvedInNextRelease
            ? `, in the release after ${incident.resolvedInRelease ?? 'the current one'}`
            : ''}
        </Fact>
        <Fact label="Releases">
          {incident.firstRelease ? (
            <span className="font-mono wrap-anywhere">
              {incident.firstRelease === incident.lastRelease
                ? incident.firstRelease
                : `${incident.firstRelease} → ${incident.lastRelease}`}
            </span>
          ) : (
            <span className="text-slate-500">No release recorded</span>
          )}
        </Fact>
        {assignment && (
          <div className="min-w-0 sm:col-span-2">
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Assigned to</dt>
            <dd className="mt-1 min-w-0">{assignment}</dd>
          </div>
        )}
        <div className="min-w-0 sm:col-span-2">
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">User wallet</dt>
          <dd className="flex min-w-0 items-center gap-2">
            {wallet ? (
              <>
                <WalletLink address={wallet} className="min-w-0 wrap-anywhere">
                  {wallet}
                </WalletLink>
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
      <FactGroup title={`In this period: ${periodLabel}`} facts={periodFacts(incident)} />
      <FactGroup title="Its whole life, which its severity is decided from" facts={lifetimeFacts(incident)} />
      <div className="mt-3 flex justify-end">
        <DownloadCsvButton table="Incident figures" build={() => incidentFiguresCsv(incident)} />
      </div>
    </Card>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="min-w-0 text-slate-800">{children}</dd>
    </div>
  );
}

function FactGroup({ title, facts }: { title: string; facts: IncidentFact[] }) {
  return (
    <section aria-label={title} className="mt-5">
      <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-indigo-700">{title}</h3>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
        {facts.map(({ label, text }) => (
          <div key={label} className="min-w-0 rounded-xl bg-slate-50 p-3 ring-1 ring-inset ring-slate-200">
            <dt className="text-[0.7rem] font-semibold uppercase tracking-wide text-indigo-700">{label}</dt>
            <dd className="mt-1 text-sm font-bold break-words text-slate-900 tabular-nums">{text}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function StatusActions({ incident, projectId }: { incident: IncidentDetail; projectId: string }) {
  const setStatus = useSetIncidentStatus(projectId);
  const busy = setStatus.isPending;
  const pending = busy ? setStatus.variables : undefined;
  const isPending = (status: 'open' | 'resolved' | 'ignored', inNextRelease = false) =>
    pending?.status === status && Boolean(pending.inNextRelease) === inNextRelease;
  // Resolve and Reopen replace each other, so the pressed button goes: focus the one that replaced it.
  const firstAction = useRef<HTMLButtonElement>(null);
  const change = (status: 'open' | 'resolved' | 'ignored', inNextRelease = false) =>
    setStatus.mutate(
      { id: incident.id, status, inNextRelease },
      {
        onSuccess: () => {
          announce(
            status === 'open'
              ? 'Incident reopened'
              : status === 'ignored'
                ? 'Incident ignored'
                : inNextRelease
                  ? 'Incident resolved until a newer release'
                  : 'Incident resolved',
          );
          focusSoon(() => firstAction.current);
        },
      },
    );
  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex flex-wrap gap-2">
        {incident.status === 'open' ? (
          <>
            <Button
              ref={firstAction}
              size="sm"
              onClick={() => change('resolved')}
              isLoading={isPending('resolved')}
              disabled={busy}
            >
              Resolve
            </Button>
            {incident.lastRelease && (
              <Button
                size="sm"
                variant="secondary"
                onClick={() => change('resolved', true)}
                isLoading={isPending('resolved', true)}
                disabled={busy}
                title={`Reopens only when it occurs in a release newer than ${incident.lastRelease}`}
              >
                Resolve in next release
              </Button>
            )}
            <Button
              size="sm"
              variant="secondary"
              onClick={() => change('ignored')}
              isLoading={isPending('ignored')}
              disabled={busy}
            >
              Ignore
            </Button>
          </>
        ) : (
          <Button
            ref={firstAction}
            size="sm"
            variant="secondary"
            onClick={() => change('open')}
            isLoading={busy}
          >
            {incident.status === 'ignored' ? 'Stop ignoring' : 'Reopen'}
          </Button>
        )}
      </div>
      {setStatus.isError && (
        <Alert tone="error">Could not change the status: {setStatus.error.message}</Alert>
      )}
    </div>
  );
}
