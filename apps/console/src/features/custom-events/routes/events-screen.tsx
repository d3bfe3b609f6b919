import type { Project } from '@polyflow/contracts/projects';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DOCS } from '../../../components/docs-links';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ChangeBadge } from '../../../components/ui/change-badge';
import { ChartCard } from '../../../components/ui/chart-card';
import { CsvScope, DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { MousePointerClick } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { PeriodFilter } from '../../../components/ui/period-filter';
import { describePeriod, resolvePeriod } from '../../../components/ui/periods';
import { Spinner } from '../../../components/ui/spinner';
import { usePeriod } from '../../../hooks/use-period';
import { Breakable } from '../../../lib/break-points';
import { compare } from '../../../lib/comparison';
import { displayTimeZone } from '../../../lib/format';
import type { EventsRange } from '../api/custom-event-keys';
import { useCustomEventBreakdown } from '../api/get-custom-event-breakdown';
import { useCustomEventSeries } from '../api/get-custom-event-series';
import { useCustomEvents } from '../api/get-custom-events';
import { DayBars } from '../components/day-bars';

/** The Events screen (docs/custom-events.md): custom events by count and users, one event's days and a property's values. */
export function EventsScreen({ project }: { project: Project }) {
  const [selection, setSelection] = usePeriod();
  const [params, setParams] = useSearchParams();
  const period = resolvePeriod(selection);
  const range: EventsRange = { projectId: project.id, from: period.from, to: period.to };
  const counts = useCustomEvents(range);
  const previous = useCustomEvents(range, true);
  const rows = counts.data ?? [];
  const chosen = params.get('event') ?? rows[0]?.name ?? null;
  const key = params.get('key') ?? '';
  const before = new Map((previous.data ?? []).map((row) => [row.name, row]));

  const setParam = (name: string, value: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      return next;
    });

  return (
    <CsvScope scope={{ project: project.name, screen: 'events', from: period.from, to: period.to }}>
      <div className="flex animate-panel flex-col gap-4">
        <PageHeader
          eyebrow={project.name}
          title="Events"
          help={{ href: DOCS.customEvents, topic: 'custom events and identify' }}
        />
        <Card aria-labelledby="events-title">
          <div className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
            <CardHeader
              titleId="events-title"
              eyebrow="track() and identify()"
              title="Custom events"
              description={<span data-testid="period-label">{describePeriod(selection)}</span>}
              actions={
                <DownloadCsvButton
                  table="Custom events"
                  disabled={rows.length === 0}
                  build={() => ({
                    header: ['Event', 'Events', 'Users', 'Events before', 'Users before'],
                    rows: rows.map((row) => [
                      row.name,
                      row.events,
                      row.users,
                      before.get(row.name)?.events ?? 0,
                      before.get(row.name)?.users ?? 0,
                    ]),
                  })}
                />
              }
            />
            <PeriodFilter value={selection} onChange={setSelection} className="mb-4" />
          </div>
          {counts.isError ? (
            <Alert tone="error">Could not load the events: {counts.error.message}</Alert>
          ) : counts.isPending ? (
            <p className="flex items-center gap-2 py-8 text-sm text-slate-500" role="status">
              <Spinner /> Loading the events…
            </p>
          ) : rows.length === 0 ? (
            <EmptyState
              icon={<MousePointerClick aria-hidden="true" className="size-6" />}
              title="No custom event"
            >
              No custom event in this period. Call <code>polyflow.track('name', props)</code> in your dapp, or
              try a longer period.
            </EmptyState>
          ) : (
            <div className="-mx-5 overflow-x-auto sm:mx-0">
              <table className="w-full text-left text-sm" data-testid="custom-events">
                <thead className="text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      Event
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      Events
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      Users
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {rows.map((row) => (
                    <tr key={row.name} className={row.name === chosen ? 'bg-indigo-50' : 'hover:bg-slate-50'}>
                      <td className="px-3 py-2">
                        <button
                          type="button"
                          className="break-words text-left font-medium text-indigo-700 hover:underline"
                          aria-pressed={row.name === chosen}
                          onClick={() => setParam('event', row.name)}
                        >
                          <Breakable text={row.name} />
                        </button>
                      </td>
                      <td className="px-3 py-2 text-right tabular-nums">
                        {row.events.toLocaleString('en-US')}{' '}
                        <ChangeBadge
                          comparison={compare(row.events, before.get(row.name)?.events ?? 0, 'relative')}
                          better="up"
                        />
                      </td>
                      <td className="px-3 py-2 text-right tabular-nums">
                        {row.users.toLocaleString('en-US')}{' '}
                        <ChangeBadge
                          comparison={compare(row.users, before.get(row.name)?.users ?? 0, 'relative')}
                          better="up"
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
        {chosen && (
          <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
            <SeriesCard range={range} name={chosen} />
            <BreakdownCard
              range={range}
              name={chosen}
              propertyKey={key}
              onKey={(value) => setParam('key', value)}
            />
          </div>
        )}
      </div>
    </CsvScope>
  );
}

function SeriesCard({ range, name }: { range: EventsRange; name: string }) {
  const series = useCustomEventSeries(range, name);
  return (
    <ChartCard
      title={`${name} per day`}
      eyebrow={`Events and users, days in ${displayTimeZone()}`}
      status={series.status}
      errorText={series.error ? `Could not load the days: ${series.error.message}` : undefined}
      onRetry={() => void series.refetch()}
      isEmpty={(series.data ?? []).every((day) => day.events === 0)}
      emptyText="No event of this name in this period"
      heightClass="min-h-0"
    >
      {series.data && <DayBars days={series.data} />}
    </ChartCard>
  );
}

function BreakdownCard({
  range,
  name,
  propertyKey,
  onKey,
}: {
  range: EventsRange;
  name: string;
  propertyKey: string;
  onKey: (key: string | null) => void;
}) {
  const [draft, setDraft] = useState(propertyKey);
  const breakdown = useCustomEventBreakdown(range, name, propertyKey);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onKey(draft.trim() || null);
  };
  return (
    <Card aria-labelledby="breakdown-title">
      <CardHeader titleId="breakdown-title" eyebrow="By a property's value" title={`${name} by property`} />
      <form className="mb-3 flex flex-wrap items-end gap-2" onSubmit={submit}>
        <Input
          label="Property"
          value={draft}
          maxLength={64}
          placeholder="e.g. pair"
          onChange={(event) => setDraft(event.target.value)}
        />
        <Button type="submit" variant="secondary">
          Break down
        </Button>
      </form>
      {!propertyKey ? (
        <p className="text-sm text-slate-500">Name one of the event's properties to see its values.</p>
      ) : breakdown.isError ? (
        <Alert tone="error">Could not load the values: {breakdown.error.message}</Alert>
      ) : breakdown.isPending ? (
        <p className="flex items-center gap-2 py-4 text-sm text-slate-500" role="status">
          <Spinner /> Loading the values…
        </p>
      ) : (
        <table className="w-full text-left text-sm" data-testid="event-breakdown">
          <thead className="text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-2">
                {propertyKey}
              </th>
              <th scope="col" className="py-1 pr-2 text-right">
                Events
              </th>
              <th scope="col" className="py-1 text-right">
                Users
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {breakdown.data.map((row) => (
              <tr key={row.value ?? '∅'}>
                <td className="break-words py-1 pr-2">
                  {row.value !== null ? (
                    <Breakable text={row.value} />
                  ) : (
                    <span className="italic text-slate-500">not set</span>
                  )}
                </td>
                <td className="py-1 pr-2 text-right tabular-nums">{row.events.toLocaleString('en-US')}</td>
                <td className="py-1 text-right tabular-nums">{row.users.toLocaleString('en-US')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
