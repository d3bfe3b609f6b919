import { type ChdbProcess, startChdbProcess } from './chdb-process.ts';

/**
 * The chdb HTTP server of this vitest worker: started by the first test file of the worker that asks, then
 * shared by the worker's later files (the server project does not isolate its files: ADR 078, and one
 * module graph per worker keeps this promise), stopped when the worker ends. Starting one costs seconds
 * of wall time and CPU (a Node process loading ClickHouse's engine); the files that used to start their own
 * each paid it (ADR 104).
 *
 * A worker runs its files one after another, so a file has the engine to itself while it runs. What it
 * shares with the worker's earlier files is the engine's catalogue: each file keeps to databases of its own
 * name (`pf_<file's subject>`), and reads the system tables only for its own database
 * (`currentDatabase()`). A test that stops, kills or restarts its engine, or needs an empty one, starts its
 * own with `startChdbProcess()`.
 */
let shared: Promise<ChdbProcess> | undefined;

export function workerChdb(): Promise<ChdbProcess> {
  if (shared === undefined) {
    // --temporary: the engine ends with the worker, however the worker ends, and removes its data directory.
    const starting = startChdbProcess({ temporary: true });
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
