import type { Project } from '@polyflow/contracts/projects';
import { isTimeZone, timeZoneNames } from '@polyflow/contracts/time-zone';
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { focusSoon } from '../../../lib/announce';
import { useSetTimeZone } from '../api/set-time-zone';

interface TimeZoneCardProps {
  project: Project;
  onError: (error: Error) => void;
}

/** "UTC+05:30": the zone's offset now, beside its name in the list. */
function offsetOf(zone: string, nowMs: number): string {
  const part = new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(nowMs)
    .find((candidate) => candidate.type === 'timeZoneName');
  return (part?.value ?? 'GMT').replace('GMT', 'UTC') || 'UTC';
}

/**
 * The project's time zone: a field that suggests the IANA names as one types (a native datalist, so the
 * browser searches and the keyboard chooses); only a name of the list is saved.
 */
export function TimeZoneCard({ project, onError }: TimeZoneCardProps) {
  const listId = useId();
  const [zone, setZone] = useState(project.timeZone);
  const setTimeZone = useSetTimeZone();
  const zoneField = useRef<HTMLInputElement>(null);
  const options = useMemo(() => {
    const now = Date.now();
    return timeZoneNames().map((name) => ({ name, offset: offsetOf(name, now) }));
  }, []);
  const trimmed = zone.trim();
  const isValid = isTimeZone(trimmed);
  const isChanged = trimmed !== project.timeZone;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!isValid || !isChanged) return;
    setTimeZone.mutate(
      { projectId: project.id, timeZone: trimmed },
      {
        onSuccess: (saved) => {
          setZone(saved.timeZone);
          // Save is disabled once nothing is changed; the status line above says the new zone.
          focusSoon(() => zoneField.current);
        },
        onError,
      },
    );
  };

  return (
    <Card aria-labelledby="time-zone-title">
      <CardHeader
        titleId="time-zone-title"
        eyebrow="Reporting"
        title="Time zone"
        description="Days, weeks, Today and Yesterday, and every date on the charts and tables follow this zone, daylight-saving changes included. Stored events keep their UTC times."
      />
      <p role="status" className="mb-3 text-sm font-medium text-slate-800">
        Reports use <span data-testid="current-time-zone">{project.timeZone}</span> (
        {offsetOf(project.timeZone, Date.now())} now).
      </p>
      <form onSubmit={onSubmit} className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <Input
          ref={zoneField}
          label="Time zone"
          list={listId}
          autoComplete="off"
          spellCheck={false}
          placeholder="Search, e.g. Berlin"
          value={zone}
          error={
            trimmed !== '' && !isValid ? 'Choose a zone of the list, e.g. Europe/Berlin or UTC.' : undefined
          }
          hint={`${options.length} IANA zones; type a city or region to search.`}
          onChange={(event) => setZone(event.target.value)}
          className="sm:flex-1"
        />
        <datalist id={listId}>
          {options.map(({ name, offset }) => (
            <option key={name} value={name}>
              {offset}
            </option>
          ))}
        </datalist>
        <div className="flex gap-2 sm:mt-[1.375rem]">
          <Button type="submit" disabled={!isValid || !isChanged} isLoading={setTimeZone.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Card>
  );
}
