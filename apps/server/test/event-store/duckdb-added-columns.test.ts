import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { createDuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { CREATE_EVENTS_TABLE } from '../../src/modules/event-store/duckdb/schema.ts';
import { blankRow } from '../../src/modules/event-store/event-row.ts';
import { storeRows } from '../support/event-stores.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-added-columns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const row = (id: string, release: string | null) => ({
  ...blankRow({
    project_id: 'p1',
    id,
    type: 'page_view',
    ts: Date.UTC(2026, 10, 1),
    received_at: Date.UTC(2026, 10, 1),
    user_id: 'u1',
    session_id: 's1',
    origin: 'app.example.com',
  }),
  release,
});

/**
 * An events.duckdb written before a column of event-row existed (here `release`, ADR 066) opens with the
 * column added at the table's end, keeps its rows, and loads and compacts new ones by name.
 */
describe('DuckDB columns added after a file was written', () => {
  it('adds `release` to an older events table, keeps its rows and stores new ones with it', async () => {
    const file = path.join(dir, 'events.duckdb');
    const old = await DuckDBInstance.create(file);
    const connection = await old.connect();
    const withoutRelease = CREATE_EVENTS_TABLE.replace(/\n\s*release VARCHAR,?/, '');
    expect(withoutRelease).not.toContain('release');
    await connection.run(withoutRelease);
    await connection.run(
      `INSERT INTO events (project_id, id, type, ts, received_at, user_id, session_id, origin)
       VALUES ('p1', 'old', 'page_view', TIMESTAMP '2026-11-01', TIMESTAMP '2026-11-01', 'u1', 's1', 'app.example.com')`,
    );
    connection.closeSync();
    old.closeSync();

    const store = await createDuckDbEventStore({ file });
    try {
      await storeRows(store, [row('new', '1.4.2')]);
      expect((await store.compact({ force: true })).compacted).toBe(true);
      const stored = await store.projectEvents('p1');
      expect(stored.map((event) => [event.id, event.release]).sort()).toEqual([
        ['new', '1.4.2'],
        ['old', null],
      ]);
    } finally {
      await store.close();
    }
  });
});
