import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { createDuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { CREATE_EVENTS_TABLE } from '../../src/modules/event-store/duckdb/schema.ts';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { storeRows } from '../support/event-stores.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-event-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 10, 1);
const range = { fromMs: T0, toMs: T0 + 86_400_000 };

const row = (id: string, session: string, user: string, extra: Partial<EventRow>): EventRow => ({
  ...blankRow({
    project_id: 'p1',
    id,
    type: 'page_view',
    ts: T0 + 60_000,
    received_at: T0 + 60_000,
    user_id: user,
    session_id: session,
    origin: 'app.example.com',
  }),
  ...extra,
});

async function keysOf(file: string) {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    return (
      await connection.runAndReadAll(
        `SELECT id, session_key = (md5_number(session_id) >> 64)::UBIGINT AS session_ok,
                user_key = (md5_number(user_id) >> 64)::UBIGINT AS user_ok
           FROM events ORDER BY id`,
      )
    ).getRowObjectsJS();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * The session and user keys of `events` (ADR 093): a file written before them (the derived tables of
 * version 11) gets them added and filled when it opens, every load fills them for new rows with the same
 * function, so a session whose events straddle the upgrade stays one session for the filters.
 */
describe('DuckDB session and user keys', () => {
  it('fills the keys of a file from before them and of every load, the same for the same ids', {
    timeout: 60_000,
  }, async () => {
    const file = path.join(dir, 'events.duckdb');
    const old = await DuckDBInstance.create(file);
    const connection = await old.connect();
    const withoutKeys = CREATE_EVENTS_TABLE.replace(/\n\s*session_key UBIGINT,\n\s*user_key UBIGINT,?/, '');
    expect(withoutKeys).not.toContain('_key');
    await connection.run(withoutKeys);
    // s1 was seen in Germany before the upgrade, s2 in France (both sessions of u1).
    await connection.run(
      `INSERT INTO events (project_id, id, type, ts, received_at, user_id, session_id, origin, country)
       VALUES ('p1', 'a-old-s1', 'page_view', TIMESTAMP '2026-11-01 00:00:30', TIMESTAMP '2026-11-01 00:00:30', 'u1', 's1', 'app.example.com', 'DE'),
              ('p1', 'b-old-s2', 'page_view', TIMESTAMP '2026-11-01 00:00:30', TIMESTAMP '2026-11-01 00:00:30', 'u1', 's2', 'app.example.com', 'FR')`,
    );
    connection.closeSync();
    old.closeSync();

    const store = await createDuckDbEventStore({ file });
    try {
      // After the upgrade s1 and s2 connect, s1 with MetaMask, s2 with Rabby.
      await storeRows(store, [
        row('c-new-s1', 's1', 'u1', {
          type: 'wallet_connected',
          wallet_address: '0xa1',
          wallet_provider: 'MetaMask',
        }),
        row('d-new-s2', 's2', 'u1', {
          type: 'wallet_connected',
          wallet_address: '0xb2',
          wallet_provider: 'Rabby',
        }),
      ]);
      // Germany + MetaMask: only s1 passes, with its events from both sides of the upgrade.
      const filters = { countries: ['DE'], walletProviders: ['MetaMask'] };
      const byCountry = await store.usersByCountry('p1', range, 10, filters);
      expect(byCountry.sort((x, y) => String(x.key).localeCompare(String(y.key)))).toEqual([
        { key: 'DE', value: 1 },
        { key: null, value: 1 },
      ]);
      expect(await store.walletProviders('p1', range, filters)).toEqual([{ key: 'MetaMask', value: 1 }]);
      // France + MetaMask: no session holds both (u1 does, over two sessions).
      expect(
        await store.usersByCountry('p1', range, 10, { countries: ['FR'], walletProviders: ['MetaMask'] }),
      ).toEqual([]);
      expect((await store.compact({ force: true })).compacted).toBe(true);
    } finally {
      await store.close();
    }
    expect(await keysOf(file)).toEqual(
      ['a-old-s1', 'b-old-s2', 'c-new-s1', 'd-new-s2'].map((id) => ({ id, session_ok: true, user_ok: true })),
    );
  });
});
