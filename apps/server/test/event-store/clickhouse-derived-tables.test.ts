import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { ClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import { SCHEMA_VERSION } from '../../src/modules/event-store/clickhouse/schema.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { databaseAtVersion } from './clickhouse-older-database.ts';
import { eventBuilder } from './event-builder.ts';
import { writeSegment } from './segment-file.ts';

/**
 * The ClickHouse adapter's derived tables (ADR 026): `error_events` and `failed_transactions` (subsets of
 * `events` on its key: errors, failed stages, wallet connections), `user_days`, `transaction_keys`, `session_events`, `funnel_events` and `transaction_receipts` (ADR 129), fed by materialized views on every insert into `events`. Whatever
 * the loads (a segment loaded again, duplicates within one insert) and the deletes (a wallet, a user, old
 * events cut mid-day, a project), each holds what it would hold if rebuilt from the events that stay; and
 * a database of schema version 2 gets them, filled, when the store starts on it.
 */

const PROJECT = 'p-ch-derived';
const OTHER = 'p-ch-other';
const DAY = 86_400_000;
const DAY0 = Date.UTC(2026, 1, 1);

const event = eventBuilder(PROJECT);

const WALLET = '0x00000000000000000000000000000000000000aa';
const OTHER_WALLET = '0x00000000000000000000000000000000000000bb';

/**
 * Two users over three days: errors, failed and confirmed transaction stages, page views; u2 is seen on
 * day 2 only with the wallet, u1 with it and without it; another project alongside.
 */
function fixture(): EventRow[] {
  const error = (ts: number, fields: Partial<EventRow> = {}) =>
    event('error', ts, {
      error_source: 'wallet',
      error_message: 'execution reverted',
      incident_id: 'inc_1',
      ...fields,
    });
  const tx = (ts: number, stage: string, fields: Partial<EventRow> = {}) =>
    event('tx', ts, {
      tx_id: `tx-${ts}`,
      tx_stage: stage,
      tx_kind: 'contract',
      tx_hash: stage === 'requested' ? null : `0x${ts.toString(16)}`,
      ...fields,
    });
  return [
    event('page_view', DAY0 + 1_000, { path: '/' }),
    event('wallet_connected', DAY0 + 1_500, { wallet_address: OTHER_WALLET }),
    error(DAY0 + 2_000),
    tx(DAY0 + 3_000, 'requested'),
    tx(DAY0 + 3_000, 'failed'),
    event('page_view', DAY0 + DAY + 5_000),
    event('wallet_connected', DAY0 + DAY + 5_500, { wallet_address: WALLET }),
    error(DAY0 + DAY + 6_000, { wallet_address: WALLET }),
    tx(DAY0 + DAY + 7_000, 'reverted', {
      tx_from: WALLET,
      chain_id: 1,
      tx_to: '0xc',
      selector: '0x12345678',
      gas_used: 21_000n,
      effective_gas_price: 3n,
    }),
    event('page_view', DAY0 + DAY + 8_000, { user_id: 'u2', session_id: 's2', wallet_address: WALLET }),
    error(DAY0 + DAY + 9_000, { user_id: 'u2', session_id: 's2', wallet_address: WALLET }),
    event('page_view', DAY0 + 2 * DAY + 1_000, { user_id: 'u2', session_id: 's3' }),
    tx(DAY0 + 2 * DAY + 12 * 3_600_000, 'confirmed', {
      chain_id: 1,
      gas_used: 50_000n,
      effective_gas_price: 2n,
    }),
    error(DAY0 + 2 * DAY + 13 * 3_600_000),
    event('page_view', DAY0 + DAY, { project_id: OTHER, user_id: 'o1' }),
    error(DAY0 + DAY, { project_id: OTHER, user_id: 'o1' }),
    // Custom events and an identify (ADR 072): one with the wallet, one cut by retention, one of OTHER.
    event('custom', DAY0 + 1_200, { event_name: 'swap', props: '{"pair":"ETH/USDC"}' }),
    event('custom', DAY0 + DAY + 8_500, {
      user_id: 'u2',
      session_id: 's2',
      event_name: 'swap',
      wallet_address: WALLET,
    }),
    event('identify', DAY0 + 2 * DAY + 14 * 3_600_000, { app_user_id: 'acct-1', props: '{"plan":"pro"}' }),
    event('custom', DAY0 + DAY + 1, { project_id: OTHER, user_id: 'o1', event_name: 'bridge' }),
  ];
}

const Snapshot = z.object({ rows: z.array(z.string()) });

/** The rows of a query as sorted text, so that two snapshots compare as sets. */
async function rowsOf(clickhouse: ClickHouse, sql: string): Promise<string[]> {
  const [row] = await clickhouse.rows(
    `SELECT arraySort(groupArray(toString(tuple(*)))) AS rows FROM (${sql})`,
    {},
    Snapshot,
  );
  return row?.rows ?? [];
}

/** What each derived table holds (once per key), and what a rebuild from the stored events would hold. */
async function derivedAndRebuilt(clickhouse: ClickHouse) {
  const subset = (table: string, where: string) => ({
    held: rowsOf(clickhouse, `SELECT * FROM ${table} FINAL`),
    rebuilt: rowsOf(clickhouse, `SELECT * FROM events FINAL WHERE ${where}`),
  });
  const errors = subset('error_events', "type = 'error'");
  const failed = subset('failed_transactions', "type = 'tx' AND tx_stage IN ('failed', 'reverted')");
  const connections = subset('wallet_connections', "type = 'wallet_connected'");
  const customEvents = {
    held: rowsOf(clickhouse, 'SELECT * FROM custom_events FINAL'),
    rebuilt: rowsOf(
      clickhouse,
      `SELECT project_id, type, ts, id, user_id, wallet_address, tx_from, event_name, app_user_id, props
         FROM events FINAL WHERE type IN ('custom', 'identify')`,
    ),
  };
  return {
    held: {
      errors: await errors.held,
      failed: await failed.held,
      connections: await connections.held,
      customEvents: await customEvents.held,
      userDays: await rowsOf(clickhouse, 'SELECT DISTINCT project_id, day, user_id FROM user_days'),
      transactionKeys: await rowsOf(
        clickhouse,
        'SELECT DISTINCT project_id, key, tx_id, ts, id FROM transaction_keys',
      ),
      walletEvents: await rowsOf(
        clickhouse,
        `SELECT wallet, project_id, ts, id, session_id, user_id, type, wallet_address, tx_from, country, browser, wallet_provider, chain_id, tx_id, tx_stage, toString(gas_used) AS gas_used, toString(effective_gas_price) AS effective_gas_price FROM wallet_events FINAL`,
      ),
      walletQuarters: await rowsOf(
        clickhouse,
        'SELECT DISTINCT project_id, quarter, wallet FROM wallet_quarters',
      ),
      userQuarters: await rowsOf(
        clickhouse,
        'SELECT DISTINCT project_id, quarter, user_id FROM user_quarters',
      ),
      userDayPaths: await rowsOf(
        clickhouse,
        'SELECT DISTINCT project_id, day, user_key, user_id, path FROM user_day_paths',
      ),
      sessionEvents: await rowsOf(
        clickhouse,
        `SELECT project_id, session_id, ts, id, user_id, type, path, referrer, utm_source, utm_medium, utm_campaign, wallet_address, wallet_provider, chain_id, tx_id, tx_stage, tx_hash, tx_from, tx_to, selector, toString(gas_used) AS gas_used, toString(effective_gas_price) AS effective_gas_price, sig_stage, sig_method, error_source, error_message, error_code, rpc_method, incident_id, toString(gas_balance) AS gas_balance, toString(wallet_nonce) AS wallet_nonce FROM session_events FINAL ORDER BY project_id, session_id, ts, id`,
      ),
      funnelEvents: await rowsOf(clickhouse, 'SELECT * FROM funnel_events FINAL'),
      receipts: await rowsOf(clickhouse, 'SELECT * FROM transaction_receipts FINAL'),
    },
    rebuilt: {
      errors: await errors.rebuilt,
      failed: await failed.rebuilt,
      connections: await connections.rebuilt,
      customEvents: await customEvents.rebuilt,
      userDays: await rowsOf(
        clickhouse,
        "SELECT DISTINCT project_id, toDate(ts, 'UTC') AS day, user_id FROM events",
      ),
      transactionKeys: await rowsOf(
        clickhouse,
        `SELECT DISTINCT project_id, assumeNotNull(tx_id) AS key, assumeNotNull(tx_id), ts, id FROM events
          WHERE type = 'tx' AND tx_id IS NOT NULL
         UNION ALL
         SELECT DISTINCT project_id, assumeNotNull(tx_hash), assumeNotNull(tx_id), ts, id FROM events
          WHERE type = 'tx' AND tx_id IS NOT NULL AND tx_hash IS NOT NULL`,
      ),
      walletEvents: await rowsOf(
        clickhouse,
        `SELECT DISTINCT wallet, project_id, ts, id, session_id, user_id, type, wallet_address, tx_from, country, browser, wallet_provider, chain_id, tx_id, tx_stage, toString(gas_used) AS gas_used, toString(effective_gas_price) AS effective_gas_price FROM events FINAL
          ARRAY JOIN arrayDistinct(arrayMap(w -> assumeNotNull(w), arrayFilter(w -> isNotNull(w), [wallet_address, tx_from]))) AS wallet`,
      ),
      walletQuarters: await rowsOf(
        clickhouse,
        `SELECT DISTINCT project_id, toDateTime64(toStartOfInterval(toDateTime(ts, 'UTC'), INTERVAL 15 MINUTE), 3, 'UTC') AS quarter,
                assumeNotNull(wallet_address) AS wallet
           FROM events FINAL WHERE wallet_address IS NOT NULL`,
      ),
      userQuarters: await rowsOf(
        clickhouse,
        `SELECT DISTINCT project_id, toDateTime64(toStartOfInterval(toDateTime(ts, 'UTC'), INTERVAL 15 MINUTE), 3, 'UTC') AS quarter,
                user_id
           FROM events FINAL`,
      ),
      userDayPaths: await rowsOf(
        clickhouse,
        `SELECT DISTINCT project_id, toDate(ts, 'UTC') AS day, user_key, user_id, path
           FROM events FINAL WHERE type = 'page_view'`,
      ),
      sessionEvents: await rowsOf(
        clickhouse,
        `SELECT project_id, session_id, ts, id, user_id, type, path, referrer, utm_source, utm_medium, utm_campaign, wallet_address, wallet_provider, chain_id, tx_id, tx_stage, tx_hash, tx_from, tx_to, selector, toString(gas_used) AS gas_used, toString(effective_gas_price) AS effective_gas_price, sig_stage, sig_method, error_source, error_message, error_code, rpc_method, incident_id, toString(gas_balance) AS gas_balance, toString(wallet_nonce) AS wallet_nonce FROM events FINAL ORDER BY project_id, session_id, ts, id`,
      ),
      funnelEvents: await rowsOf(
        clickhouse,
        `SELECT project_id, type, coalesce(event_name, ''), coalesce(tx_stage, ''), ts, id, user_key, user_id, wallet_address, tx_from, coalesce(path, ''), if(type = 'custom', props, NULL), utm_source, utm_medium, utm_campaign, utm_content, utm_term
           FROM events FINAL WHERE type IN ('page_view', 'custom', 'wallet_connected', 'tx')`,
      ),
      receipts: await rowsOf(
        clickhouse,
        `SELECT project_id, ts, id, toDate(ts, 'UTC'), assumeNotNull(tx_id), assumeNotNull(tx_stage), chain_id,
                tx_to, selector, toInt256(ifNull(gas_used, 0)) * toInt256(ifNull(effective_gas_price, 0)),
                if(tx_stage = 'failed', 0, cityHash64(lower(ifNull(tx_hash, ''))))
           FROM events FINAL
          WHERE type = 'tx' AND tx_id IS NOT NULL
            AND (tx_stage = 'failed' OR (tx_stage IN ('confirmed', 'reverted') AND gas_used IS NOT NULL
                 AND effective_gas_price IS NOT NULL))`,
      ),
    },
  };
}

async function expectInLine(clickhouse: ClickHouse) {
  const { held, rebuilt } = await derivedAndRebuilt(clickhouse);
  expect(held).toEqual(rebuilt);
  return held;
}

const SLOW = 120_000;
const suite = useChdbSuite('polyflow-ch-derived-', SLOW);

describe('ClickHouse derived tables (ADR 026)', { timeout: SLOW }, () => {
  let store: ClickHouseEventStore;

  it('hold each event once however often it is loaded, and follow every kind of delete', async () => {
    store = await templatedClickHouseStore(`${suite.url}/pf_derived`);
    const rows = fixture();
    // Twice in one insert (one part holding each key twice), then again as a retried segment.
    await store.loadSegment(writeSegment(suite.dir, [...rows, ...rows]));
    await store.loadSegment(writeSegment(suite.dir, rows));
    const held = await expectInLine(store.clickhouse);
    expect(held.errors).toHaveLength(5);
    expect(held.failed).toHaveLength(2);
    expect(held.connections).toHaveLength(2);
    expect(held.customEvents).toHaveLength(4);
    expect(held.userDays).toHaveLength(6);
    // Four stages by their id, three by their hash too.
    expect(held.transactionKeys).toHaveLength(7);
    // Each event carrying the wallet once (ADR 073).
    expect(held.walletEvents).toHaveLength(7);
    expect(held.walletQuarters.length).toBeGreaterThan(1);
    expect(held.userQuarters.length).toBeGreaterThanOrEqual(held.userDays.length);
    // Each (day, user, path) of a page view once; another project's alongside.
    expect(held.userDayPaths).toHaveLength(5);
    // Page views, wallet connections, transaction stages and custom events, each once (ADR 124).
    expect(held.funnelEvents).toHaveLength(14);
    // A failed stage, a reverted and a confirmed receipt, each once (ADR 129).
    expect(held.receipts).toHaveLength(3);
    // Distinct counts and FINAL: what the questions read counts each event once.
    const [counts] = await store.clickhouse.rows(
      `SELECT (SELECT count() FROM error_events FINAL WHERE project_id = {project:String}) AS errors,
              (SELECT uniqExact(user_id) FROM user_days WHERE project_id = {project:String}) AS users`,
      { project: PROJECT },
      z.object({ errors: z.coerce.number(), users: z.coerce.number() }),
    );
    expect(counts).toEqual({ errors: 4, users: 2 });

    // u2's second day was only with the wallet: it goes; u1's has a page view without it and stays.
    expect(await store.deleteWalletEvents(PROJECT, WALLET.toUpperCase())).toBe(6);
    const afterWallet = await expectInLine(store.clickhouse);
    expect(afterWallet.errors).toHaveLength(3);
    expect(afterWallet.failed).toHaveLength(1);
    expect(afterWallet.connections).toHaveLength(1);
    expect(afterWallet.customEvents).toHaveLength(3);
    expect(afterWallet.userDays).toHaveLength(5);
    expect(afterWallet.walletEvents).toHaveLength(1);
    expect(afterWallet.userDayPaths).toHaveLength(4);
    expect(afterWallet.receipts).toHaveLength(2);

    // Cut in the morning of the third day: u2's page view that morning goes; u1's afternoon keeps the day.
    expect(await store.deleteEventsBefore(PROJECT, new Date(DAY0 + 2 * DAY + 6 * 3_600_000))).toBe(8);
    const afterRetention = await expectInLine(store.clickhouse);
    expect(afterRetention.customEvents).toHaveLength(2);
    expect(afterRetention.userDays.filter((row) => row.includes(PROJECT))).toHaveLength(1);
    expect(afterRetention.userDayPaths.filter((row) => row.includes(PROJECT))).toHaveLength(0);
    expect(afterRetention.receipts).toHaveLength(1);

    expect(await store.deleteUserEvents(OTHER, 'o1')).toBe(3);
    expect((await expectInLine(store.clickhouse)).customEvents).toHaveLength(1);
    await store.deleteProjectEvents(PROJECT);
    const emptied = await expectInLine(store.clickhouse);
    expect(emptied).toEqual({
      errors: [],
      failed: [],
      connections: [],
      customEvents: [],
      userDays: [],
      transactionKeys: [],
      walletEvents: [],
      walletQuarters: [],
      userQuarters: [],
      userDayPaths: [],
      sessionEvents: [],
      funnelEvents: [],
      receipts: [],
    });
    await store.close();
  });

  it('are created and filled when the store starts on a database of schema version 2', async () => {
    const url = `${suite.url}/pf_derived_v2`;
    const rows = fixture();
    const tables = await databaseAtVersion(url, 2, (writer) =>
      writer.loadSegment(writeSegment(suite.dir, [...rows, ...rows])),
    );
    expect(tables).not.toContain('user_days');

    store = await createClickHouseEventStore(url);
    const [version] = await store.clickhouse.rows(
      'SELECT max(version) AS version FROM schema_version',
      {},
      z.object({ version: z.coerce.number() }),
    );
    expect(version?.version).toBe(SCHEMA_VERSION);
    const held = await expectInLine(store.clickhouse);
    expect(held.errors).toHaveLength(5);
    expect(held.customEvents).toHaveLength(4);
    expect(held.userDays).toHaveLength(6);
    expect(held.userDayPaths).toHaveLength(5);
    expect(held.funnelEvents).toHaveLength(14);
    expect(held.receipts).toHaveLength(3);
    // Loads after the upgrade go through the views.
    await store.loadSegment(
      writeSegment(suite.dir, [event('error', DAY0 + 3 * DAY, { user_id: 'u3', incident_id: 'inc_2' })]),
    );
    const later = await expectInLine(store.clickhouse);
    expect(later.errors).toHaveLength(6);
    expect(later.userDays).toHaveLength(7);
    expect(later.userDayPaths).toEqual(held.userDayPaths);
    await store.close();
  });

  it('get transaction_receipts, filled, when the store starts on a database of schema version 33', async () => {
    const url = `${suite.url}/pf_derived_v33`;
    const rows = fixture();
    const tables = await databaseAtVersion(url, 33, (writer) =>
      writer.loadSegment(writeSegment(suite.dir, [...rows, ...rows])),
    );
    expect(tables).toContain('wallet_sent_transactions');
    expect(tables).not.toContain('transaction_receipts');

    store = await createClickHouseEventStore(url);
    const held = await expectInLine(store.clickhouse);
    expect(held.receipts).toHaveLength(3);
    // A receipt loaded after the upgrade reaches it through its view.
    await store.loadSegment(
      writeSegment(suite.dir, [
        event('tx', DAY0 + 3 * DAY, {
          tx_id: 'tx-late',
          tx_stage: 'reverted',
          tx_kind: 'contract',
          chain_id: 10,
          gas_used: 30_000n,
          effective_gas_price: 5n,
        }),
      ]),
    );
    expect((await expectInLine(store.clickhouse)).receipts).toHaveLength(4);
    await store.close();
  });
});
