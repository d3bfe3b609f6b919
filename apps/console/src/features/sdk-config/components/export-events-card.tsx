import type { Project } from '@polyflow/contracts/projects';
import { instantOfWallClock, localDate } from '@polyflow/contracts/time-zone';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Download } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { countOf, formatBytes } from '../../../lib/format';
import { saveFile } from '../../../lib/save-file';
import { type ExportFormat, useExportEvents } from '../api/export-events';

const DAY_MS = 86_400_000;
/** The instant a local day (`YYYY-MM-DD` of the zone) starts, as the server reads it. */
const midnightOf = (day: string, zone: string) =>
  new Date(instantOfWallClock(Date.parse(`${day}T00:00:00Z`), zone)).toISOString();
/** The calendar day after `day`. */
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

const FORMATS: Array<{ value: ExportFormat; label: string; hint: string }> = [
  { value: 'csv', label: 'CSV', hint: 'a spreadsheet, one row per event' },
  { value: 'ndjson', label: 'NDJSON', hint: 'one JSON object per line, for scripts' },
];

/**
 * The raw export of docs/data-access-and-privacy.md: every stored event of whole days of the project's
 * time zone, every column, as CSV or NDJSON, optionally with each event's local time. The days are
 * inclusive here; the server's range ends at the local midnight after the last.
 */
export function ExportEventsCard({ project }: { project: Project }) {
  const zone = project.timeZone;
  const today = localDate(Date.now(), zone);
  const [from, setFrom] = useState(localDate(Date.now() - 6 * DAY_MS, zone));
  const [to, setTo] = useState(today);
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [localTime, setLocalTime] = useState(false);
  const exportEvents = useExportEvents();
  const formatName = useId();
  const rangeError = from && to && from > to ? 'The first day must not be after the last.' : undefined;
  const canExport = from !== '' && to !== '' && !rangeError;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canExport) return;
    exportEvents.mutate(
      {
        projectId: project.id,
        from: midnightOf(from, zone),
        to: midnightOf(nextDay(to), zone),
        format,
        localTime,
      },
      { onSuccess: (file) => saveFile(file.fileName, file.blob) },
    );
  };

  return (
    <Card aria-labelledby="export-title">
      <CardHeader
        titleId="export-title"
        eyebrow="Your data"
        title="Export raw events"
        description={`Every stored event of the days chosen (${zone}, by the time the browser recorded it), with every column.`}
      />
      <form onSubmit={onSubmit} className="flex flex-col gap-3">
        <div className="grid gap-3 sm:grid-cols-2">
          <Input
            label="First day"
            type="date"
            value={from}
            max={today}
            onChange={(event) => setFrom(event.target.value)}
          />
          <Input
            label="Last day"
            type="date"
            value={to}
            max={today}
            error={rangeError}
            onChange={(event) => setTo(event.target.value)}
          />
        </div>
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-slate-600">
            Format
          </legend>
          {FORMATS.map((option) => (
            <label key={option.value} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={formatName}
                value={option.value}
                checked={format === option.value}
                onChange={() => setFormat(option.value)}
                className="size-4 accent-indigo-600"
              />
              <span>
                <strong className="font-semibold">{option.label}</strong>: {option.hint}
              </span>
            </label>
          ))}
        </fieldset>
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            checked={localTime}
            onChange={(event) => setLocalTime(event.target.checked)}
            className="mt-0.5 size-4 shrink-0 accent-indigo-600"
          />
          <span>
            <strong className="font-semibold">Add local time</strong>: a <code>local_time</code> column, each
            event's time in {zone} with its offset
          </span>
        </label>
        <Button type="submit" disabled={!canExport} isLoading={exportEvents.isPending} className="self-start">
          {!exportEvents.isPending && <Download aria-hidden="true" className="size-4" />}
          Export events
        </Button>
      </form>
      {exportEvents.isSuccess && (
        <Alert tone="success" className="mt-3">
          Saved <span className="font-mono break-all">{exportEvents.data.fileName}</span>:{' '}
          {countOf(exportEvents.data.events, 'event')}, {formatBytes(exportEvents.data.blob.size)}.
        </Alert>
      )}
      {exportEvents.error && (
        <Alert tone="error" className="mt-3">
          {exportEvents.error.message}
        </Alert>
      )}
    </Card>
  );
}
