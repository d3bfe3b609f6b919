import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { ClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { databaseAtVersion } from './clickhouse-older-database.ts';
import { eventBuilder } from './event-builder.ts';
import { writeSegment } from './segment-file.ts';

/**
 * `user_value_sets` (ADR 039): per (project, user, a session-day's value sets) the days those sets held,
 * fed by a view on `session_days`. Whatever the loads (duplicates within one insert, a segment loaded
 * again, a session-day split over two loads) and the deletes (a wallet, old events cut mid-day, a user, a
 * project), the (user, set, value, day) facts it holds are those the stored events give; a database of
 * schema version 8 gets it, filled, when the store starts on it.
 */

const PROJECT = 'p-ch-values';
const OTHER = 'p-ch-values-other';
const HOUR = 3_600_000;
const DAY = 86_400_000;
const DAY0 = Date.UTC(2026, 3, 1);
const WALLET = '0x00000000000000000000000000000000000000b2';

const event = eventBuilder(PROJECT);

/**
 * Two users over three days: u1 always from DE on Chrome with a landing campaign, MetaMask on the first
 * two days, a term on the third; u2 from US, once from FR, whose only Rabby events are the wallet's (so
 * forgetting the wallet changes a set); a session of u2 across midnight; a user of another project.
 */
function fixture(): EventRow[] {
  const u1 = { user_id: 'u1', country: 'DE', browser: 'Chrome', utm_campaign: 'launch', utm_source: 'x' };
  const u2 = { user_id: 'u2', country: 'US', browser: 'Firefox' };
  return [
    event('page_view', DAY0 + 9 * HOUR, { ...u1, session_id: 'a1' }),
    event('wallet_detected', DAY0 + 9 * HOUR + 1, { ...u1, session_id: 'a1', wallet_provider: 'MetaMask' }),
    event('page_view', DAY0 + DAY + 9 * HOUR, { ...u1, session_id: 'a2' }),
    event('wallet_detected', DAY0 + DAY + 9 * HOUR + 1, {
      ...u1,
      session_id: 'a2',
      wallet_provider: 'MetaMask',
    }),
    event('page_view', DAY0 + 2 * DAY + 9 * HOUR, { ...u1, session_id: 'a3', utm_term: 'defi' }),
    event('page_view', DAY0 + 10 * HOUR, { ...u2, session_id: 'b1' }),
    event('wallet_connected', DAY0 + 10 * HOUR + 1, {
      ...u2,
      session_id: 'b1',
      wallet_provider: 'Rabby Wallet',
      wallet_address: WALLET,
    }),
    event('page_view', DAY0 + DAY + 23 * HOUR, { ...u2, session_id: 'b2', country: 'FR' }),
    event('page_view', DAY0 + 2 * DAY + HOUR, { ...u2, session_id: 'b2' }),
    event('page_view', DAY0 + DAY, { user_id: 'o1', session_id: 'o1', country: 'GB', project_id: OTHER }),
  ];
}

const Facts = z.object({ facts: z.array(z.string()) });
const SETS = [
  ['countries', 'country'],
  ['utm_terms', 'utm_term'],
  ['utm_sources', 'utm_source'],
  ['utm_mediums', 'utm_medium'],
  ['utm_campaigns', 'utm_campaign'],
  ['utm_contents', 'utm_content'],
  ['browsers', 'browser'],
  ['wallet_providers', 'wallet_provider'],
] as const;

/** The (project, user, set, value, day) facts the table holds, and those the stored events give. */
async function heldAndStored(clickhouse: ClickHouse) {
  const facts = async (sql: string) => {
    const [row] = await clickhouse.rows(
      `SELECT arraySort(groupUniqArray(toString(fact))) AS facts FROM (${sql})`,
      {},
      Facts,
    );
    return row?.facts ?? [];
  };
  return {
    held: await facts(`SELECT (project_id, user_id, pair.1, pair.2, day) AS fact
      FROM user_value_sets
     ARRAY JOIN days AS day
     ARRAY JOIN arrayConcat(${SETS.map(([set]) => `arrayMap(v -> ('${set}', v), ${set})`).join(', ')}) AS pair`),
    stored: await facts(`SELECT (project_id, user_id, pair.1, pair.2, toDate(ts, 'UTC')) AS fact
      FROM events FINAL
     ARRAY JOIN [${SETS.map(([set, column]) => `('${set}', toString(${column}))`).join(', ')}] AS pair
     WHERE pair.2 IS NOT NULL`),
  };
}

async function expectInLine(clickhouse: ClickHouse): Promise<string[]> {
  const { held, stored } = await heldAndStored(clickhouse);
  expect(held).toEqual(stored);
  return held;
}

const SLOW = 120_000;
const suite = useChdbSuite('polyflow-ch-values-', SLOW);

describe('ClickHouse user value sets (ADR 039)', { timeout: SLOW }, () => {
  it('hold what the stored events give however often they are loaded, and follow every kind of delete', async () => {
    const store = await templatedClickHouseStore(`${suite.url}/pf_values`);
    const rows = fixture();
    // u2's midnight session split over two loads; everything twice in one insert, then once more.
    await store.loadSegment(writeSegment(suite.dir, [...rows.slice(0, 7), ...rows.slice(0, 7)]));
    await store.loadSegment(writeSegment(suite.dir, rows.slice(7)));
    await store.loadSegment(writeSegment(suite.dir, rows));
    const held = await expectInLine(store.clickhouse);
    expect(held).toContain(`('${PROJECT}','u2','wallet_providers','Rabby Wallet','2026-04-01')`);
    expect(held).toContain(`('${PROJECT}','u2','countries','FR','2026-04-02')`);

    // A user's repeated sets are one row: u1's three days are two rows (the third has a term, no wallet).
    const [u1] = await store.clickhouse.rows(
      `SELECT count() AS n FROM user_value_sets FINAL WHERE project_id = {project:String} AND user_id = 'u1'`,
      { project: PROJECT },
      z.object({ n: z.coerce.number() }),
    );
    expect(u1?.n).toBe(2);

    await store.deleteWalletEvents(PROJECT, WALLET.toUpperCase());
    const afterWallet = await expectInLine(store.clickhouse);
    expect(afterWallet).not.toContain(`('${PROJECT}','u2','wallet_providers','Rabby Wallet','2026-04-01')`);

    // Retention cut in the middle of the second day: u2's 23:00 event of that day stays.
    await store.deleteEventsBefore(PROJECT, new Date(DAY0 + DAY + 12 * HOUR));
    const afterRetention = await expectInLine(store.clickhouse);
    expect(afterRetention).not.toContain(`('${PROJECT}','u1','countries','DE','2026-04-02')`);
    expect(afterRetention).toContain(`('${PROJECT}','u2','countries','FR','2026-04-02')`);

    await store.deleteUserEvents(OTHER, 'o1');
    expect((await expectInLine(store.clickhouse)).some((fact) => fact.includes(OTHER))).toBe(false);
    await store.deleteProjectEvents(PROJECT);
    expect(await expectInLine(store.clickhouse)).toEqual([]);
    await store.close();
  });

  it('is created and filled when the store starts on a database of schema version 8', async () => {
    const url = `${suite.url}/pf_values_v8`;
    const rows = fixture();
    const tables = await databaseAtVersion(url, 8, (writer) =>
      writer.loadSegment(writeSegment(suite.dir, [...rows, ...rows])),
    );
    expect(tables).not.toContain('user_value_sets');

    const store = await createClickHouseEventStore(url);
    expect(await expectInLine(store.clickhouse)).not.toEqual([]);
    // Loads after the upgrade go through the views.
    await store.loadSegment(
      writeSegment(suite.dir, [
        event('page_view', DAY0 + 3 * DAY, { user_id: 'u3', session_id: 'c1', country: 'JP' }),
      ]),
    );
    expect(await expectInLine(store.clickhouse)).toContain(
      `('${PROJECT}','u3','countries','JP','2026-04-04')`,
    );
    await store.close();
  });
});
