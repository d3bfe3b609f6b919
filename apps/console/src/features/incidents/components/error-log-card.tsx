import type { IncidentOccurrence, TrailEvent } from '@polyflow/contracts/incidents';
import { Card, CardHeader } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { eventTypeLabel } from '../../../components/ui/event-types';
import { AlertOctagon } from '../../../components/ui/icons';
import { countryName } from '../../../lib/format';
import { formatTimeOfDay } from '../lib/format';
import { trailCsv } from '../lib/incident-csv';
import { StackTrace } from './stack-trace';

/**
 * The server's words for a trail event, or null when they only repeat its type (the chip beside says it
 * in words): a custom event by its name alone ("Custom event quote_requested" → "quote_requested").
 */
function trailDescription(event: TrailEvent): string | null {
  const text = event.description.trim();
  if (event.type === 'custom')
    return text.startsWith('Custom event ') ? text.slice('Custom event '.length) : null;
  const bare = event.type.replace(/_/g, ' ');
  return text !== '' && text !== bare ? text : null;
}

/** The stored error: message, context, stack, and the session's events that led up to it. */
export function ErrorLogCard({ occurrence }: { occurrence: IncidentOccurrence }) {
  const context: Array<[string, string | null]> = [
    ['RPC code', occurrence.code === null ? null : String(occurrence.code)],
    ['Method', occurrence.method],
    ['Release', occurrence.release ?? null],
    ['Page', occurrence.path],
    ['Browser', [occurrence.browser, occurrence.os].filter(Boolean).join(' on ') || null],
    ['Country', occurrence.country === null ? null : countryName(occurrence.country)],
    ['Session', occurrence.sessionId],
    ['Event', occurrence.eventId],
  ];
  return (
    <Card aria-labelledby="error-log-title">
      <CardHeader titleId="error-log-title" eyebrow="Frontend error log" title="Error log" />
      <p className="rounded-lg bg-red-50 px-3 py-2.5 font-mono text-sm break-words text-red-800 ring-1 ring-inset ring-red-200">
        {occurrence.message}
      </p>
      <dl className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm">
        {context
          .filter((entry): entry is [string, string] => entry[1] !== null)
          .map(([label, value]) => (
            <div key={label} className="flex min-w-0 gap-1.5">
              <dt className="text-slate-500">{label}</dt>
              <dd className="min-w-0 font-semibold wrap-anywhere text-slate-800">{value}</dd>
            </div>
          ))}
      </dl>
      <h3 className="mt-5 mb-2 text-xs font-semibold uppercase tracking-widest text-slate-600">Stack</h3>
      <StackTrace occurrence={occurrence} />
      <div className="mt-5 mb-2 flex items-center justify-between gap-2">
        <h3 className="text-xs font-semibold uppercase tracking-widest text-slate-600">
          Events leading up to it
        </h3>
        <DownloadCsvButton table="Events leading up to the error" build={() => trailCsv(occurrence)} />
      </div>
      <ol aria-label="Events leading up to the error" className="relative ml-2 border-l-2 border-indigo-100">
        {occurrence.trail.map((event, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: events of one session can share a time and type.
          <li key={index} className="relative pb-3 pl-5">
            <span
              aria-hidden="true"
              className="absolute top-1.5 -left-[7px] size-3 rounded-full border-2 border-white bg-indigo-400"
            />
            <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
              <time dateTime={event.time} className="font-mono text-xs text-slate-500">
                {formatTimeOfDay(event.time)}
              </time>
              <span className="rounded bg-indigo-50 px-1.5 py-0.5 text-[0.7rem] font-semibold text-indigo-800">
                {eventTypeLabel(event.type)}
              </span>
              <span className="text-slate-700">{trailDescription(event)}</span>
            </p>
          </li>
        ))}
        <li className="relative pl-5">
          <span aria-hidden="true" className="absolute top-1 -left-[9px] rounded-full bg-white text-red-600">
            <AlertOctagon className="size-4" />
          </span>
          <p className={cn('flex flex-wrap items-baseline gap-x-2 text-sm')}>
            <time dateTime={occurrence.time} className="font-mono text-xs text-slate-500">
              {formatTimeOfDay(occurrence.time)}
            </time>
            <span className="rounded bg-red-50 px-1.5 py-0.5 text-[0.7rem] font-semibold text-red-800">
              Error
            </span>
            <span className="font-semibold text-red-800">This error</span>
          </p>
        </li>
      </ol>
      {occurrence.trail.length === 0 && (
        <p className="mt-2 text-sm text-slate-500">No earlier events of this session were recorded.</p>
      )}
    </Card>
  );
}
