import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { storeRows } from '../support/event-stores.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { databaseAtVersion } from './clickhouse-older-database.ts';

const suite = useChdbSuite('polyflow-ch-event-keys-', 60_000);
const T0 = Date.UTC(2026, 10, 1);
const range = { fromMs: T0, toMs: T0 + 86_400_000 };

const row = (id: string, session: string, extra: Partial<EventRow>): EventRow => ({
  ...blankRow({
    project_id: 'p1',
    id,
    type: 'page_view',
    ts: T0 + 60_000,
    received_at: T0 + 60_000,
    user_id: 'u1',
    session_id: session,
    origin: 'app.example.com',
  }),
  ...extra,
});

const KeyRow = z.object({ id: z.string(), session_ok: z.coerce.number(), user_ok: z.coerce.number() });

/**
 * ClickHouse schema 19 (ADR 093): a database at version 18 gets the session and user keys of its stored
 * events, later loads get theirs from the same expression, so a session whose events straddle the
 * upgrade stays one session for the filters.
 */
describe('ClickHouse session and user keys (schema 19)', () => {
  it('keys the events of a version 18 database and of every load, the same for the same ids', {
    timeout: 60_000,
  }, async () => {
    const url = `${suite.url}/pf_keys_v18`;
    // Before the upgrade: s1 seen in Germany, s2 in France (both sessions of u1).
    const tables = await databaseAtVersion(url, 18, (writer) =>
      storeRows(writer, [row('a-old-s1', 's1', { country: 'DE' }), row('b-old-s2', 's2', { country: 'FR' })]),
    );
    expect(tables).toContain('events');
    const store = await createClickHouseEventStore(url);
    try {
      // After it s1 connects MetaMask, s2 Rabby.
      await storeRows(store, [
        row('c-new-s1', 's1', {
          type: 'wallet_connected',
          wallet_address: '0xa1',
          wallet_provider: 'MetaMask',
        }),
        row('d-new-s2', 's2', { type: 'wallet_connected', wallet_address: '0xb2', wallet_provider: 'Rabby' }),
      ]);
      const filters = { countries: ['DE'], walletProviders: ['MetaMask'] };
      expect(await store.walletProviders('p1', range, filters)).toEqual([{ key: 'MetaMask', value: 1 }]);
      expect(
        await store.walletProviders('p1', range, { countries: ['FR'], walletProviders: ['MetaMask'] }),
      ).toEqual([]);
      const keys = await store.clickhouse.rows(
        `SELECT id, session_key = cityHash64(session_id) AS session_ok, user_key = cityHash64(user_id) AS user_ok
           FROM events ORDER BY id`,
        {},
        KeyRow,
      );
      expect(keys).toEqual(
        ['a-old-s1', 'b-old-s2', 'c-new-s1', 'd-new-s2'].map((id) => ({ id, session_ok: 1, user_ok: 1 })),
      );
    } finally {
      await store.close();
    }
  });
});
