/**
 * A background pass run every `intervalMs` (and once after `startDelayMs`, when given), one at a time: a
 * slow pass delays the next rather than overlapping it. A failed pass is logged and tried again at the next
 * tick. `stop()` starts no new pass and waits for the one under way (before the stores close).
 */
export function startPeriodicJob({
  pass,
  intervalMs,
  startDelayMs,
  logger,
  failure,
}: {
  pass(): Promise<void>;
  intervalMs: number;
  startDelayMs?: number;
  logger: { error(details: object, message: string): void };
  /** The log message of a failed pass, e.g. "retention pass failed; retrying at the next one". */
  failure: string;
}): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let isStopped = false;

  function tick(): void {
    if (isStopped || running) return;
    running = pass()
      .catch((error: unknown) => {
        if (!isStopped) logger.error({ err: error }, failure);
      })
      .finally(() => {
        running = undefined;
      });
  }

  const first = startDelayMs === undefined ? undefined : setTimeout(tick, startDelayMs);
  const every = setInterval(tick, intervalMs);
  first?.unref();
  every.unref();

  return {
    async stop(): Promise<void> {
      isStopped = true;
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
