import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type ChdbProcess, startChdbProcess } from '../support/chdb-process.ts';
import { type WorkerChdb, workerChdb } from '../support/worker-chdb.ts';

export type ChdbSuite = {
  /** The chdb HTTP server's URL with credentials: add a database as the path. */
  readonly url: string;
  /** A scratch directory for the file's segment files and DuckDB stores. */
  readonly dir: string;
};

/**
 * The worker's chdb process (ClickHouse's engine behind its HTTP interface: test/support/worker-chdb.ts,
 * started by the worker's first file that asks, within `startTimeoutMs`) and one scratch directory for a
 * test file, removed after its tests. The file keeps to databases of its own name in the engine.
 * `engine: 'own'`: an engine of the file's own instead, stopped after its tests, for a file that times the
 * engine's answers (no earlier file's background merges beside them).
 */
export function useChdbSuite(
  dirPrefix: string,
  startTimeoutMs: number,
  options: { engine?: 'worker' | 'own' } = {},
): ChdbSuite {
  let chdb: WorkerChdb | undefined;
  let ownChdb: ChdbProcess | undefined;
  let dir: string | undefined;
  const own = options.engine === 'own';
  beforeAll(async () => {
    if (own) ownChdb = await startChdbProcess({ jit: false });
    chdb = ownChdb ?? (await workerChdb());
    dir = mkdtempSync(path.join(os.tmpdir(), dirPrefix));
  }, startTimeoutMs);
  afterAll(async () => {
    await ownChdb?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useChdbSuite: read before its beforeAll ran');
    return value;
  };
  return {
    get url() {
      return started(chdb).url;
    },
    get dir() {
      return started(dir);
    },
  };
}
