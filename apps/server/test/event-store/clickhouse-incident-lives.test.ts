import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { ClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import { incidentLivesOf, LIFE_FIGURES } from '../../src/modules/event-store/clickhouse/incident-lives.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { databaseAtVersion } from './clickhouse-older-database.ts';
import { eventBuilder } from './event-builder.ts';
import { writeSegment } from './segment-file.ts';

/**
 * `incident_lives` (ADR 037): one row per (project, incident) of aggregate states, fed by a view on
 * `events`. Whatever the loads (duplicates within one insert, a segment loaded again) and the deletes (a
 * wallet, old events, a user, a project), its figures are those a rebuild from the stored events gives;
 * a database of schema version 7 gets it, filled, when the store starts on it; and the lifetimes read
 * from it are the summaries the occurrences give, falling back to them when an occurrence lies beyond
 * the range's end.
 */

const PROJECT = 'p-ch-lives';
const OTHER = 'p-ch-lives-other';
const DAY = 86_400_000;
const DAY0 = Date.UTC(2026, 1, 1);
const WALLET = '0x00000000000000000000000000000000000000aa';

const event = eventBuilder(PROJECT);

/**
 * Two incidents over three days: a wallet's failure to send (paired with a failed stage 4 s later in the
 * same session) seen by two users, a window error; one occurrence with a wallet, one without a code;
 * two occurrences in one millisecond; an SDK error (not an incident source); another project alongside.
 */
function fixture(): EventRow[] {
  const send = (ts: number, fields: Partial<EventRow> = {}) =>
    event('error', ts, {
      error_source: 'wallet',
      rpc_method: 'eth_sendTransaction',
      error_message: 'user rejected',
      error_code: 4001,
      incident_id: 'inc_send',
      ...fields,
    });
  const crash = (ts: number, fields: Partial<EventRow> = {}) =>
    event('error', ts, {
      error_source: 'window',
      error_message: 'TypeError: x is undefined',
      incident_id: 'inc_crash',
      ...fields,
    });
  return [
    send(DAY0 + 1_000),
    event('tx', DAY0 + 5_000, { tx_id: 'tx-1', tx_stage: 'failed', tx_kind: 'contract' }),
    send(DAY0 + DAY + 2_000, { user_id: 'u2', session_id: 's2', wallet_address: WALLET }),
    send(DAY0 + DAY + 3_000, { user_id: 'u2', session_id: 's2', error_code: null }),
    crash(DAY0 + 2_000),
    crash(DAY0 + DAY, { id: 'b-same-ms', user_id: 'u2', session_id: 's2' }),
    crash(DAY0 + DAY, { id: 'a-same-ms', error_message: 'TypeError: y is undefined' }),
    crash(DAY0 + 2 * DAY + 12 * 3_600_000, { wallet_address: WALLET }),
    event('error', DAY0 + 2 * DAY, { error_source: 'sdk', incident_id: 'inc_sdk' }),
    crash(DAY0 + DAY, { project_id: OTHER, user_id: 'o1' }),
  ];
}

const Snapshot = z.object({ rows: z.array(z.string()) });

/** Each life's figures as text, held (the table, merged) and rebuilt from the stored events. */
async function heldAndRebuilt(clickhouse: ClickHouse) {
  const figures = async (source: string) => {
    const [row] = await clickhouse.rows(
      `SELECT arraySort(groupArray(toString(tuple(*)))) AS rows
         FROM (SELECT project_id, incident_id, ${LIFE_FIGURES} FROM ${source} GROUP BY project_id, incident_id)`,
      {},
      Snapshot,
    );
    return row?.rows ?? [];
  };
  return {
    held: await figures('incident_lives'),
    rebuilt: await figures(`(${incidentLivesOf('events FINAL')})`),
  };
}

async function expectInLine(clickhouse: ClickHouse): Promise<string[]> {
  const { held, rebuilt } = await heldAndRebuilt(clickhouse);
  expect(held).toEqual(rebuilt);
  return held;
}

/** The lifetimes (from the start of time, read from the lives) and the same range from 1 ms (the occurrences). */
async function lifetimesBothWays(store: ClickHouseEventStore, toMs: number, incidentId?: string) {
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
  return {
    fromLives: (await store.incidentSummaries(PROJECT, { fromMs: 0, toMs }, { incidentId })).sort(byId),
    fromOccurrences: (await store.incidentSummaries(PROJECT, { fromMs: 1, toMs }, { incidentId })).sort(byId),
  };
}

const SLOW = 120_000;
const suite = useChdbSuite('polyflow-ch-lives-', SLOW);

describe('ClickHouse incident lives (ADR 037)', { timeout: SLOW }, () => {
  it('fold each occurrence once however often it is loaded, and follow every kind of delete', async () => {
    const store = await templatedClickHouseStore(`${suite.url}/pf_lives`);
    const rows = fixture();
    await store.loadSegment(writeSegment(suite.dir, [...rows, ...rows]));
    await store.loadSegment(writeSegment(suite.dir, rows));
    const held = await expectInLine(store.clickhouse);
    // Three incidents (the SDK's error is none), one of them in the other project.
    expect(held).toHaveLength(3);

    const now = DAY0 + 10 * DAY;
    const { fromLives, fromOccurrences } = await lifetimesBothWays(store, now);
    expect(fromLives).toEqual(fromOccurrences);
    expect(fromLives.map((life) => [life.id, life.occurrences, life.failedTransactions])).toEqual([
      ['inc_crash', 4, 0],
      ['inc_send', 3, 1],
    ]);
    const crash = fromLives[0];
    // The title is the latest occurrence's; the wallet the latest one seen with a wallet.
    expect(crash?.title).toBe('TypeError: x is undefined');
    expect(crash?.wallet).toBe(WALLET);
    const send = await lifetimesBothWays(store, now, 'inc_send');
    expect(send.fromLives).toEqual(send.fromOccurrences);
    // The latest occurrence has no code: the latest that has one gives it.
    expect(send.fromLives[0]?.code).toBe(4001);

    // An occurrence at or after the range's end: the lives cannot answer it, the occurrences do.
    const early = await lifetimesBothWays(store, DAY0 + 2 * DAY);
    expect(early.fromLives).toEqual(early.fromOccurrences);
    expect(early.fromLives.find((life) => life.id === 'inc_crash')?.occurrences).toBe(3);

    await store.deleteWalletEvents(PROJECT, WALLET.toUpperCase());
    expect(await expectInLine(store.clickhouse)).toHaveLength(3);
    const afterWallet = await lifetimesBothWays(store, now);
    expect(afterWallet.fromLives).toEqual(afterWallet.fromOccurrences);
    expect(afterWallet.fromLives.map((life) => [life.id, life.occurrences])).toEqual([
      ['inc_crash', 3],
      ['inc_send', 2],
    ]);

    await store.deleteEventsBefore(PROJECT, new Date(DAY0 + DAY));
    await expectInLine(store.clickhouse);
    const afterRetention = await lifetimesBothWays(store, now);
    expect(afterRetention.fromLives).toEqual(afterRetention.fromOccurrences);
    expect(afterRetention.fromLives.map((life) => [life.id, life.occurrences])).toEqual([
      ['inc_crash', 2],
      ['inc_send', 1],
    ]);

    await store.deleteUserEvents(OTHER, 'o1');
    expect(await expectInLine(store.clickhouse)).toHaveLength(2);
    await store.deleteProjectEvents(PROJECT);
    expect(await expectInLine(store.clickhouse)).toEqual([]);
    await store.close();
  });

  it('is created and filled when the store starts on a database of schema version 7', async () => {
    const url = `${suite.url}/pf_lives_v7`;
    const rows = fixture();
    const tables = await databaseAtVersion(url, 7, (writer) =>
      writer.loadSegment(writeSegment(suite.dir, [...rows, ...rows])),
    );
    expect(tables).not.toContain('incident_lives');

    const store = await createClickHouseEventStore(url);
    expect(await expectInLine(store.clickhouse)).toHaveLength(3);
    // Loads after the upgrade go through the view.
    await store.loadSegment(
      writeSegment(suite.dir, [
        event('error', DAY0 + 3 * DAY, { error_source: 'window', incident_id: 'inc_new' }),
      ]),
    );
    expect(await expectInLine(store.clickhouse)).toHaveLength(4);
    const { fromLives, fromOccurrences } = await lifetimesBothWays(store, DAY0 + 10 * DAY);
    expect(fromLives).toEqual(fromOccurrences);
    await store.close();
  });
});
