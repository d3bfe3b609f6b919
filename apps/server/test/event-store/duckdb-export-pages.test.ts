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
import { EXPORT_SLICE_ROWS, exportEvents } from '../../src/modules/event-store/duckdb/export-events.ts';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { storeRows } from '../support/event-stores.ts';

/**
 * What the DuckDB export holds at a time (docs/decisions/027): it reads a page (two queries on a pooled
 * connection) only when the consumer has taken every row of the page before, and hands each page on in
 * slices of at most EXPORT_SLICE_ROWS rows.
 */

const PROJECT = 'p-pages';
const T0 = Date.UTC(2026, 2, 1);
const ROWS = 1_300;
const PAGE_ROWS = 600;

/** The pool, counting the pages read (each page is one `use`: its two queries). */
function countingPool(pool: ConnectionPool) {
  const counts = { pagesRead: 0 };
  const counting: ConnectionPool = {
    use(work) {
      counts.pagesRead++;
      return pool.use(work);
    },
    close: () => pool.close(),
  };
  return { counts, pool: counting };
}

describe("the DuckDB export's reading", () => {
  let dir: string;
  let store: DuckDbEventStore;
  const rows: EventRow[] = Array.from({ length: ROWS }, (_, index) =>
    blankRow({
      project_id: PROJECT,
      id: `ev-${String(index).padStart(5, '0')}`,
      type: 'page_view',
      // Three rows per millisecond: page ends fall between rows of the same ts.
      ts: T0 + Math.floor(index / 3),
      received_at: T0,
      user_id: 'u1',
      session_id: 's1',
      origin: 'app.example.com',
    }),
  );

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-export-pages-'));
    store = await createDuckDbEventStore({ file: path.join(dir, 'events.duckdb') });
    await storeRows(store, rows);
  }, 60_000);

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the next page only when every slice of the one before was taken, in slices of at most EXPORT_SLICE_ROWS', async () => {
    const { counts, pool } = countingPool(createConnectionPool(() => store.connect(), 1));
    const pages = exportEvents(
      pool,
      PROJECT,
      { from: new Date(T0), to: new Date(T0 + 86_400_000) },
      PAGE_ROWS,
    );
    const taken: { rows: number; pagesRead: number }[] = [];
    const all: EventRow[] = [];
    for await (const slice of pages) {
      taken.push({ rows: slice.length, pagesRead: counts.pagesRead });
      all.push(...slice);
    }
    pool.close();
    expect(EXPORT_SLICE_ROWS).toBeLessThan(PAGE_ROWS);
    // Pages of 600 rows (the last one 100), each in slices of at most 500; a page is read as its first
    // slice is pulled, not before.
    expect(taken).toEqual([
      { rows: EXPORT_SLICE_ROWS, pagesRead: 1 },
      { rows: PAGE_ROWS - EXPORT_SLICE_ROWS, pagesRead: 1 },
      { rows: EXPORT_SLICE_ROWS, pagesRead: 2 },
      { rows: PAGE_ROWS - EXPORT_SLICE_ROWS, pagesRead: 2 },
      { rows: ROWS - 2 * PAGE_ROWS, pagesRead: 3 },
    ]);
    expect(all).toEqual(rows);
  });
});
