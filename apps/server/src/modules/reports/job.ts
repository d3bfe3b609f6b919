import { startPeriodicJob } from '../../lib/periodic-job.ts';

/** How often the leader looks for reports to send (a report goes out within this of the period's end). */
export const REPORT_CHECK_INTERVAL_MS = 5 * 60_000;

export type ReportJobOptions = {
  /** One pass (`ReportService.sendDue`). */
  sendDue(): Promise<unknown>;
  logger: { error(details: object, message: string): void };
  startDelayMs?: number;
  intervalMs?: number;
};

/**
 * Sends due reports in the background: registered in app.ts with `leadership.runWhileLeading`, so one
 * node runs it at a time; the claims in `report_sends` keep a report single even if two ever overlap.
 */
export function startReportJob({
  sendDue,
  logger,
  startDelayMs = 30_000,
  intervalMs = REPORT_CHECK_INTERVAL_MS,
}: ReportJobOptions) {
  return startPeriodicJob({
    pass: async () => {
      await sendDue();
    },
    intervalMs,
    startDelayMs,
    logger,
    failure: 'the report pass failed; retrying at the next one',
  });
}
