import type { CompactionResult, CompactOptions } from './compaction.ts';

export type CompactionSchedulerOptions = {
  store: { compact(options?: CompactOptions): Promise<CompactionResult> };
  logger: { info(facts: object, message: string): void; error(facts: object, message: string): void };
  /** The first check, shortly after start-up (a table left unclustered by the last run). */
  startDelayMs?: number;
  /** Then a check this often; the store decides whether enough rows arrived to rewrite the table. */
  intervalMs?: number;
};

/**
 * Re-clusters the event table in the background, never inside a request (ADR 004). A check on a
 * table that needs nothing costs two counts; a rewrite pauses only the ingestion loader.
 */
export function startEventCompaction({
  store,
  logger,
  startDelayMs = 5_000,
  intervalMs = 5 * 60_000,
}: CompactionSchedulerOptions) {
  let running: Promise<void> | undefined;
  let isStopped = false;

  async function check(): Promise<void> {
    const started = Date.now();
    try {
      const result = await store.compact({
        onStart: (facts) => logger.info(facts, 'event table compaction started'),
      });
      if (result.compacted) {
        logger.info(
          { rows: result.rows, newRows: result.newRows, durationMs: Math.round(result.durationMs) },
          'event table compaction finished: clustered by (project_id, ts)',
        );
      }
    } catch (error) {
      // On shutdown the store interrupts a compaction under way: that is not a failure.
      if (!isStopped) {
        logger.error({ err: error, afterMs: Date.now() - started }, 'event table compaction failed');
      }
    }
  }

  function tick(): void {
    if (isStopped || running) return;
    running = check().finally(() => {
      running = undefined;
    });
  }

  const first = setTimeout(tick, startDelayMs);
  const every = setInterval(tick, intervalMs);
  first.unref();
  every.unref();

  return {
    /** Before the store closes: no new checks (closing the store interrupts one under way). */
    stop(): void {
      isStopped = true;
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
