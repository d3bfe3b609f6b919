import type { Project } from '@polyflow/contracts/projects';
import { Link } from 'react-router';
import { DOCS } from '../../../components/docs-links';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { CsvScope, DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { Radio, RotateCw } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useLiveActivity } from '../api/get-live-activity';
import { LiveEventList } from '../components/live-event-list';
import { LiveTiles } from '../components/live-tiles';
import { type LiveStatus, useLiveEvents } from '../hooks/use-live-events';
import { activityCsv } from '../lib/live-csv';

const STATUS_TEXT: Record<LiveStatus, string> = {
  connecting: 'Connecting…',
  open: 'Live',
  reconnecting: 'Reconnecting…',
  failed: 'Disconnected',
};

/**
 * The Live screen (docs/live.md): activity of the last 30 minutes from the event store, refreshed every
 * 5 s, and the stream of events as ingestion acknowledges them.
 */
export function LiveScreen({ project, configPath }: { project: Project; configPath: string }) {
  const activity = useLiveActivity(project.id);
  const live = useLiveEvents(project.id);
  // The files cover the last 30 minutes the tiles show; until they load, the 30 minutes up to now.
  const data = activity.data;
  const to = data?.to ?? new Date().toISOString();
  const from = data?.from ?? new Date(Date.parse(to) - 30 * 60_000).toISOString();
  // The stream has no replay (docs/live.md): an empty list beside tiles that count recent events is a page
  // opened between events, not a broken integration, and says so.
  const recentEvents = data?.eventsPerMinute.reduce((sum, minute) => sum + minute.value, 0) ?? 0;

  return (
    <CsvScope scope={{ project: project.name, screen: 'live', from, to }}>
      <div className="flex animate-panel flex-col gap-4">
        <PageHeader eyebrow={project.name} title="Live" help={{ href: DOCS.live, topic: 'the live view' }} />
        <Card aria-labelledby="live-activity-title">
          <CardHeader
            titleId="live-activity-title"
            eyebrow="Last 30 minutes"
            title="Right now"
            actions={data && <DownloadCsvButton table="Right now" build={() => activityCsv(data)} />}
          />
          {activity.isError && (
            <Alert tone="error" className="mb-3">
              Could not load the last 30 minutes: {activity.error.message}
            </Alert>
          )}
          <LiveTiles activity={activity.data} isLoading={activity.isPending} isError={activity.isError} />
        </Card>
        <Card aria-labelledby="live-stream-title">
          <CardHeader
            titleId="live-stream-title"
            eyebrow="As they arrive"
            title="Latest events"
            actions={<StatusBadge status={live.status} />}
          />
          {live.status === 'failed' ? (
            <Alert tone="error">
              <p>{live.problem ?? 'The live stream stopped.'}</p>
              <Button size="sm" variant="secondary" className="mt-2" onClick={live.retry}>
                <RotateCw aria-hidden="true" className="size-3.5" /> Try again
              </Button>
            </Alert>
          ) : live.status === 'reconnecting' ? (
            <Alert tone="warning" className="mb-3">
              The stream was interrupted{live.problem ? ` (${live.problem})` : ''}; reconnecting. Events sent
              meanwhile are stored and count on the other screens.
            </Alert>
          ) : null}
          {live.status !== 'failed' &&
            (live.events.length === 0 ? (
              <div className="flex flex-col items-center gap-2 rounded-xl bg-slate-50 p-8 text-center text-sm text-slate-600 ring-1 ring-inset ring-slate-200">
                {live.status === 'connecting' ? (
                  <Spinner className="text-indigo-500" />
                ) : (
                  <Radio aria-hidden="true" className="size-5 text-indigo-400" />
                )}
                <p>
                  {live.status === 'connecting'
                    ? 'Connecting to the live stream…'
                    : 'Waiting for events. Only events that arrive after you opened this page show here.'}
                </p>
                {recentEvents > 0 ? (
                  <p className="text-xs text-slate-500">
                    The tiles above count the {recentEvents.toLocaleString('en-US')}{' '}
                    {recentEvents === 1 ? 'event' : 'events'} of the last 30 minutes, so events are arriving;
                    new ones appear here the moment your dapp sends them.
                  </p>
                ) : (
                  <p className="text-xs text-slate-500">
                    Nothing arriving? Check the integration in{' '}
                    <Link to={configPath} className="font-semibold text-indigo-700 underline">
                      SDK settings
                    </Link>
                    .
                  </p>
                )}
              </div>
            ) : (
              <LiveEventList events={live.events} received={live.received} />
            ))}
        </Card>
      </div>
    </CsvScope>
  );
}

function StatusBadge({ status }: { status: LiveStatus }) {
  return (
    <span
      role="status"
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset',
        status === 'open' && 'bg-emerald-50 text-emerald-800 ring-emerald-200',
        (status === 'connecting' || status === 'reconnecting') && 'bg-amber-50 text-amber-900 ring-amber-200',
        status === 'failed' && 'bg-red-50 text-red-800 ring-red-200',
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'size-2 rounded-full',
          status === 'open'
            ? 'animate-pulse bg-emerald-500'
            : status === 'failed'
              ? 'bg-red-500'
              : 'bg-amber-500',
        )}
      />
      {STATUS_TEXT[status]}
    </span>
  );
}
