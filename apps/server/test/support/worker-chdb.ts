import { inject } from 'vitest';
import { startChdbProcess } from './chdb-process.ts';

/** A chdb HTTP server a test file may use: its URL with credentials (add a database as the path). */
export type WorkerChdb = { url: string };

/**
 * The chdb HTTP server of this vitest worker, shared by the worker's files (the server project does not
 * isolate its files: ADR 078, and one module graph per worker keeps this promise). Starting one costs
 * seconds of wall time and CPU (a Node process loading ClickHouse's engine, then its migrated template);
 * the files that used to start their own each paid it (ADR 104).
 *
 * When the run has started chdb servers for its ClickHouse project (global-setup.ts: one per worker), this
 * worker takes the one of its `VITEST_POOL_ID`, as the ClickHouse project's workers do, instead of starting
 * another (ADR 120): a run of both projects starts two engines, not four. Otherwise the first test file of
 * the worker that asks starts one, stopped when the worker ends.
 *
 * A worker runs its files one after another, so a file has the engine to itself while it runs. What it
 * shares with the worker's earlier files (and with the files of the other project that had the same pool
 * id) is the engine's catalogue: each file keeps to databases of its own name (`pf_<file's subject>`), and
 * reads the system tables only for its own database (`currentDatabase()`). A test that stops, kills or
 * restarts its engine, or needs an empty one, starts its own with `startChdbProcess()`.
 */
let shared: Promise<WorkerChdb> | undefined;

/** The run's chdb server of this worker (global-setup.ts starts them, one per worker), if it started them. */
export function runChdbUrl(): string | undefined {
  const urls = inject('clickhouseServerUrls');
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  return urls[(worker - 1) % Math.max(urls.length, 1)];
}

export function workerChdb(): Promise<WorkerChdb> {
  if (shared === undefined) {
    const url = runChdbUrl();
    if (url) {
      shared = Promise.resolve({ url });
      return shared;
    }
    // --temporary: the engine ends with the worker, however the worker ends, and removes its data directory.
    // No JIT: a test engine's statements run too few times to repay compiling them (ADR 131).
    const starting = startChdbProcess({ temporary: true, jit: false });
    shared = starting;
    starting.then(
      (chdb) => {
        process.once('exit', () => chdb.process.kill('SIGTERM'));
      },
      () => {
        // A failed start is not kept: the next file tries again and reports its own failure.
        if (shared === starting) shared = undefined;
      },
    );
  }
  return shared;
}
