import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConnectionPool,
  createConnectionPool,
} from '../../src/modules/event-store/duckdb/connection-pool.ts';
import {
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import {
  EXPORT_BATCH_ROWS,
  exportEvents,
  windowsOf,
} from '../../src/modules/event-store/duckdb/export-events.ts';
import { batchRows } from '../../src/modules/event-store/event-batch.ts';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { storeRows } from '../support/event-stores.ts';

/**
 * How the DuckDB export reads (docs/decisions/028): the range cut into windows of about N rows by a
 * histogram of ts, one query per window, read one window ahead of the consumer, handed on in batches of
 * at most EXPORT_BATCH_ROWS rows.
 */

const PROJECT = 'p-pages';
const T0 = Date.UTC(2026, 2, 1);
const DAY_MS = 86_400_000;
const ROWS = 5_300;
const WINDOW_ROWS = 600;
// One millisecond holding more rows than a window: it cannot be cut on ts, so one window takes it whole.
const CROWDED_MS = T0 + 5_000;
const CROWDED_ROWS = 900;

const event = (id: string, ts: number): EventRow =>
  blankRow({
    project_id: PROJECT,
    id,
    type: 'page_view',
    ts,
    received_at: T0,
    user_id: 'u1',
    session_id: 's1',
    origin: 'app.example.com',
  });

/** The pool, counting the windows read (each window is one `use`; the histogram is the first). */
function countingPool(pool: ConnectionPool) {
  const counts = { uses: 0 };
  const counting: ConnectionPool = {
    use(projectId, work) {
      counts.uses++;
      return pool.use(projectId, work);
    },
    close: () => pool.close(),
  };
  return { counts, pool: counting };
}

describe("the DuckDB export's windows", () => {
  let dir: string;
  let store: DuckDbEventStore;
  // Three rows per millisecond (window ends cannot fall between them), ids against the time order.
  const rows: EventRow[] = [
    ...Array.from({ length: ROWS }, (_, index) =>
      event(`ev-${String(ROWS - index).padStart(5, '0')}`, T0 + Math.floor(index / 3)),
    ),
    ...Array.from({ length: CROWDED_ROWS }, (_, index) =>
      event(`crowd-${String(index).padStart(4, '0')}`, CROWDED_MS),
    ),
  ];
  const byTimeAndId = (a: EventRow, b: EventRow) => a.ts - b.ts || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-export-pages-'));
    store = await createDuckDbEventStore({ file: path.join(dir, 'events.duckdb') });
    await storeRows(store, rows);
  }, 60_000);

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('cuts the range into windows that tile it, each of at most N rows unless one millisecond holds more', async () => {
    const connection = await store.connect();
    const span = { fromMs: T0 - DAY_MS, toMs: T0 + DAY_MS };
    const windows = await windowsOf(connection, PROJECT, span, WINDOW_ROWS);
    connection.closeSync();
    expect(windows[0]?.fromMs).toBe(span.fromMs);
    expect(windows.at(-1)?.toMs).toBe(span.toMs);
    for (const [index, window] of windows.slice(1).entries())
      expect(window.fromMs).toBe(windows[index]?.toMs);
    const counts = windows.map(
      ({ fromMs, toMs }) => rows.filter((row) => row.ts >= fromMs && row.ts < toMs).length,
    );
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(rows.length);
    for (const [index, count] of counts.entries()) {
      const window = windows[index] as (typeof windows)[number];
      const holdsCrowd = window.fromMs <= CROWDED_MS && CROWDED_MS < window.toMs;
      expect(count).toBeLessThanOrEqual(holdsCrowd ? CROWDED_ROWS : WINDOW_ROWS);
    }
    // Not a window per millisecond either: most windows are more than half full.
    expect(windows.length).toBeLessThan((2 * rows.length) / WINDOW_ROWS + 4);
  });

  it('reads one window ahead of the consumer and hands every row on once, in (ts, id) order', async () => {
    const range = { from: new Date(T0), to: new Date(T0 + DAY_MS) };
    const connection = await store.connect();
    const windows = await windowsOf(connection, PROJECT, { fromMs: T0, toMs: T0 + DAY_MS }, WINDOW_ROWS);
    connection.closeSync();
    const { counts, pool } = countingPool(createConnectionPool(() => store.connect(), 2));
    const taken: { rows: number; uses: number }[] = [];
    const all: EventRow[] = [];
    for await (const batch of exportEvents(pool, PROJECT, range, WINDOW_ROWS)) {
      taken.push({ rows: batch.rowCount, uses: counts.uses });
      all.push(...batchRows(batch));
    }
    pool.close();
    expect(all).toEqual([...rows].sort(byTimeAndId));
    for (const { rows: batchRowCount } of taken) expect(batchRowCount).toBeLessThanOrEqual(EXPORT_BATCH_ROWS);
    // One query for the histogram, then one per window; the first batch is handed on when the first
    // window and the one after it (read ahead) have been asked for, not more.
    expect(windows.length).toBeGreaterThanOrEqual(10);
    expect(counts.uses).toBe(1 + windows.length);
    expect(taken[0]?.uses).toBe(3);
  });

  it('gives nothing for a project or a range without events', async () => {
    const read = async (projectId: string, from: number, to: number) => {
      const pool = createConnectionPool(() => store.connect(), 1);
      const rowsRead: EventRow[] = [];
      for await (const batch of exportEvents(pool, projectId, { from: new Date(from), to: new Date(to) }))
        rowsRead.push(...batchRows(batch));
      pool.close();
      return rowsRead;
    };
    expect(await read('p-none', T0, T0 + DAY_MS)).toEqual([]);
    expect(await read(PROJECT, T0 - DAY_MS, T0)).toEqual([]);
  });
});
