import { startPeriodicJob } from '../../lib/periodic-job.ts';

import type { EvaluationResult } from './evaluation.ts';

export type AlertEvaluationJobOptions = {
  evaluate(): Promise<EvaluationResult>;
  intervalMs: number;
  logger: { info(details: object, message: string): void; error(details: object, message: string): void };
};

/**
 * Evaluates every rule each `intervalMs` (ALERT_EVALUATION_INTERVAL_SECONDS), one evaluation at a time: a
 * slow one delays the next rather than overlapping it. Started through `leadership.runWhileLeading`, so
 * one node runs it (app.ts).
 */
export function startAlertEvaluationJob({ evaluate, intervalMs, logger }: AlertEvaluationJobOptions) {
  return startPeriodicJob({
    pass: async () => {
      const result = await evaluate();
      if (result.triggered + result.resolved > 0) logger.info({ ...result }, 'alert rules evaluated');
    },
    intervalMs,
    logger,
    failure: 'alert evaluation failed; retrying at the next one',
  });
}
