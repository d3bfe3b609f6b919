import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { createDuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import {
  addMissingEventColumns,
  CREATE_EVENTS_TABLE,
  EVENT_KEY_COLUMNS,
  FILL_EVENT_KEYS,
} from '../../src/modules/event-store/duckdb/schema.ts';
import { blankRow, EVENT_COLUMNS } from '../../src/modules/event-store/event-row.ts';
import { storeRows } from '../support/event-stores.ts';

/** An events.duckdb from before a column was added to event-row.ts opens with it added (ADR 064). */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The columns added since the previous release, last in event-row.ts (ADR 064, 066). */
const ADDED = ['event_name', 'app_user_id', 'props', 'release'];

async function oldFile(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-columns-'));
  dirs.push(dir);
  const file = path.join(dir, 'events.duckdb');
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  // Today's DDL without the columns added since: the table as an older version made it.
  const lines = CREATE_EVENTS_TABLE.split('\n').filter(
    (line) => !ADDED.some((name) => line.trim().startsWith(`${name} `)),
  );
  await connection.run(lines.join('\n'));
  await connection.run(
    `INSERT INTO events (project_id, id, type, ts, received_at, user_id, session_id, origin)
     VALUES ('p1', 'old-1', 'page_view', TIMESTAMP '2024-02-01 10:00:00', TIMESTAMP '2024-02-01 10:00:01', 'u1', 's1', 'app.example.com')`,
  );
  connection.closeSync();
  instance.closeSync();
  return file;
}

describe('columns added to event-row.ts', () => {
  it('are added to an older events table at open, its rows kept, new rows stored with them', async () => {
    const file = await oldFile();
    const store = await createDuckDbEventStore({ file });
    try {
      const ts = Date.parse('2024-02-02T10:00:00Z');
      await storeRows(store, [
        {
          ...blankRow({
            project_id: 'p1',
            id: 'new-1',
            type: 'custom',
            ts,
            received_at: ts,
            user_id: 'u1',
            session_id: 's1',
            origin: 'app.example.com',
          }),
          event_name: 'swap',
          props: '{"pair":"ETH/USDC"}',
        },
      ]);
      const rows = await store.projectEvents('p1');
      expect(rows.map((row) => [row.id, row.event_name, row.props])).toEqual([
        ['old-1', null, null],
        ['new-1', 'swap', '{"pair":"ETH/USDC"}'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('adds none to a table in another order, and says why', () => {
    const names = EVENT_COLUMNS.map((column) => column.name);
    const keys = EVENT_KEY_COLUMNS.map((column) => column.name);
    expect(addMissingEventColumns([...names, ...keys])).toEqual([]);
    // The keys (ADR 093) are matched by name: event-row columns added after them follow them.
    expect(addMissingEventColumns([...names.slice(0, -ADDED.length), ...keys])).toEqual(
      ADDED.map((name) => `ALTER TABLE events ADD COLUMN ${name} VARCHAR`),
    );
    expect(addMissingEventColumns([...names.slice(0, -1), ...keys, ...names.slice(-1)])).toEqual([]);
    // A file without the keys gets them, filled.
    expect(addMissingEventColumns(names)).toEqual([
      'ALTER TABLE events ADD COLUMN session_key UBIGINT',
      'ALTER TABLE events ADD COLUMN user_key UBIGINT',
      FILL_EVENT_KEYS,
    ]);
    const swapped = [names[1], names[0], ...names.slice(2, -ADDED.length)] as string[];
    expect(() => addMissingEventColumns(swapped)).toThrow(/column 1 of events is id, expected project_id/);
  });
});
