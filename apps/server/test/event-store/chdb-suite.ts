import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type ChdbProcess, startChdbProcess } from '../support/chdb-process.ts';

export type ChdbSuite = {
  /** The chdb HTTP server's URL with credentials: add a database as the path. */
  readonly url: string;
  /** A scratch directory for the file's segment files and DuckDB stores. */
  readonly dir: string;
};

/**
 * One chdb process (ClickHouse's engine behind its HTTP interface) and one scratch directory for a test
 * file: started before its tests (within `startTimeoutMs`), stopped and removed after them.
 */
export function useChdbSuite(dirPrefix: string, startTimeoutMs: number): ChdbSuite {
  let chdb: ChdbProcess | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    chdb = await startChdbProcess();
    dir = mkdtempSync(path.join(os.tmpdir(), dirPrefix));
  }, startTimeoutMs);
  afterAll(async () => {
    await chdb?.stop();
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
