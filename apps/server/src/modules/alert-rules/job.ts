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
  let running: Promise<void> | undefined;
  let isStopped = false;

  function tick(): void {
    if (isStopped || running) return;
    running = evaluate()
      .then((result) => {
        if (result.triggered + result.resolved > 0) logger.info({ ...result }, 'alert rules evaluated');
      })
      .catch((error: unknown) => {
        if (!isStopped) logger.error({ err: error }, 'alert evaluation failed; retrying at the next one');
      })
      .finally(() => {
        running = undefined;
      });
  }

  const every = setInterval(tick, intervalMs);
  every.unref();

  return {
    async stop(): Promise<void> {
      isStopped = true;
      clearInterval(every);
      await running;
    },
  };
}
