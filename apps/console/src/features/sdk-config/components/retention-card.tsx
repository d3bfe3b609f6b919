import { MAX_RETENTION_DAYS, type Project } from '@polyflow/contracts/projects';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { useSetRetention } from '../api/set-retention';

interface RetentionCardProps {
  project: Project;
  onError: (error: Error) => void;
}

function describe(days: number | null): string {
  if (days === null) return 'Events are kept forever.';
  return `Events older than ${days} ${days === 1 ? 'day' : 'days'} are deleted every hour.`;
}

/** How long the project's events are kept: a number of days, or forever. */
export function RetentionCard({ project, onError }: RetentionCardProps) {
  const [days, setDays] = useState(project.retentionDays === null ? '' : String(project.retentionDays));
  const setRetention = useSetRetention();
  const parsed = Number(days);
  const isValid =
    days.trim() !== '' && Number.isInteger(parsed) && parsed >= 1 && parsed <= MAX_RETENTION_DAYS;
  const invalidMessage =
    days.trim() !== '' && !isValid
      ? `Enter a whole number of days from 1 to ${MAX_RETENTION_DAYS}.`
      : undefined;

  const save = (retentionDays: number | null) =>
    setRetention.mutate(
      { projectId: project.id, retentionDays },
      {
        onSuccess: (saved) => setDays(saved.retentionDays === null ? '' : String(saved.retentionDays)),
        onError,
      },
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isValid) save(parsed);
  };

  return (
    <Card aria-labelledby="retention-title">
      <CardHeader
        titleId="retention-title"
        eyebrow="Privacy"
        title="Data retention"
        description="Polyflow deletes this project's events older than the retention, by the time the browser recorded them. Deleted events leave every chart and export."
      />
      <p role="status" className="mb-3 text-sm font-medium text-slate-800">
        {describe(project.retentionDays)}
      </p>
      <form onSubmit={onSubmit} className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <Input
          label="Keep events for (days)"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_RETENTION_DAYS}
          step={1}
          placeholder="Forever"
          value={days}
          error={invalidMessage}
          hint={`From 1 to ${MAX_RETENTION_DAYS} days.`}
          onChange={(event) => setDays(event.target.value)}
          className="sm:flex-1"
        />
        <div className="flex gap-2 sm:mt-[1.375rem]">
          <Button
            type="submit"
            disabled={!isValid}
            isLoading={setRetention.isPending && setRetention.variables?.retentionDays !== null}
          >
            Save
          </Button>
          {project.retentionDays !== null && (
            <Button
              type="button"
              variant="secondary"
              isLoading={setRetention.isPending && setRetention.variables?.retentionDays === null}
              onClick={() => save(null)}
            >
              Keep forever
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
