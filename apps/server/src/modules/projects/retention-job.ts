import { startPeriodicJob } from '../../lib/periodic-job.ts';

export const RETENTION_INTERVAL_MS = 60 * 60_000;

export type RetentionJobOptions = {
  /** One pass over every project with a retention (`ProjectService.applyRetention`). */
  applyRetention(): Promise<{ projectId: string; deleted: number }[]>;
  logger: { info(details: object, message: string): void; error(details: object, message: string): void };
  /** The first pass, shortly after start-up (a server that was down for a while catches up). */
  startDelayMs?: number;
  intervalMs?: number;
};

/**
 * Deletes each project's events older than its retention, hourly, in the background. Registered in
 * app.ts where the event store's own maintenance starts; with several nodes, one of them should run it.
 */
export function startRetentionJob({
  applyRetention,
  logger,
  startDelayMs = 30_000,
  intervalMs = RETENTION_INTERVAL_MS,
}: RetentionJobOptions) {
  return startPeriodicJob({
    pass: async () => {
      const results = await applyRetention();
      const deleted = results.filter((result) => result.deleted > 0);
      if (deleted.length > 0) logger.info({ projects: deleted }, 'retention deleted old events');
    },
    intervalMs,
    startDelayMs,
    logger,
    failure: 'retention pass failed; retrying at the next one',
  });
}
