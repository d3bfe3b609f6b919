import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { blankRow } from '../../src/modules/event-store/event-row.ts';
import { rowsRecord } from '../../src/modules/event-store/log-records.ts';

const EVENTS_PER_SEGMENT = 20_000;
const T0 = Date.UTC(2026, 1, 1);

/** A segment of rows records: `count` page views, ids and sessions unique to `name`. */
function segment(dir: string, name: string): string {
  let lines = '';
  for (let index = 0; index < EVENTS_PER_SEGMENT; index++) {
    const row = blankRow({
      project_id: 'p-memory',
      id: `${name}-${index}`,
      type: 'page_view',
      ts: T0 + index,
      received_at: T0 + index,
      user_id: `u${index % 500}`,
      session_id: `${name}-s${index % 1000}`,
      origin: 'app.example.com',
    });
    lines += `${rowsRecord({ ...row, path: `/page/${index % 50}`, browser: 'Firefox', country: 'FR' })}\n`;
  }
  const file = path.join(dir, `${name}.ndjson`);
  writeFileSync(file, lines);
  return file;
}

describe('the DuckDB loader', () => {
  let dir: string | undefined;
  let store: DuckDbEventStore | undefined;
  afterEach(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps nothing of a load in memory once it is committed (no temporary table growing load after load)', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-loader-memory-'));
    store = await createDuckDbEventStore({ file: path.join(dir, 'events.duckdb') });
    const connection = await store.connect();
    for (let load = 0; load < 4; load++) await store.loadSegment(segment(dir, `load${load}`));
    // Written into the file: what stays in memory under this tag now is the temporary tables' data (the
    // file's tables are in the buffer pool under others). Four loads' rows left behind hold tens of MB.
    await connection.run('CHECKPOINT');
    const inMemoryTables = await connection.runAndReadAll(
      `SELECT coalesce(sum(memory_usage_bytes), 0) AS bytes FROM duckdb_memory() WHERE tag = 'IN_MEMORY_TABLE'`,
    );
    const stored = await connection.runAndReadAll('SELECT count(*) AS n FROM events');
    connection.closeSync();

    expect(Number(stored.getRowObjectsJS()[0]?.n)).toBe(4 * EVENTS_PER_SEGMENT);
    expect(Number(inMemoryTables.getRowObjectsJS()[0]?.bytes)).toBeLessThan(1024 * 1024);
  });
});
