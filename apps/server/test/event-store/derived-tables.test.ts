import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DERIVED_TABLE_NAMES,
  ensureDerivedTables,
  inTransaction,
  rebuildDerivedTables,
} from '../../src/modules/event-store/duckdb/derived-tables.ts';
import {
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { transactionsCte } from '../../src/modules/event-store/duckdb/sql.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { rowsRecord } from '../../src/modules/event-store/log-records.ts';
import { bucketRange, DAY_MS } from '../../src/reading/time-range.ts';
import { storeRows } from '../support/event-stores.ts';
import { eventBuilder } from './event-builder.ts';

const PROJECT = 'p-derived';
const DAY0 = Date.UTC(2026, 1, 1);
const RANGE = { fromMs: DAY0 + 10 * DAY_MS, toMs: DAY0 + 20 * DAY_MS };
const event = eventBuilder(PROJECT);

/** Rows as an ingestion log segment of rows records (what the loader hands the store). */
function segmentOf(rows: EventRow[]): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'polyflow-segment-')), 'segment');
  writeFileSync(file, rows.map((row) => `${rowsRecord(row)}\n`).join(''));
  return file;
}

/** Every derived table's rows, in a stable order. */
async function derivedRows(connection: DuckDBConnection): Promise<Record<string, unknown[]>> {
  const snapshot: Record<string, unknown[]> = {};
  for (const name of DERIVED_TABLE_NAMES) {
    const reader = await connection.runAndReadAll(`SELECT * FROM ${name} ORDER BY ALL`);
    snapshot[name] = reader.getRowObjectsJS();
  }
  return snapshot;
}

/** What a rebuild from `events` would hold, without keeping it. */
async function rebuiltRows(connection: DuckDBConnection): Promise<Record<string, unknown[]>> {
  await connection.run('BEGIN TRANSACTION');
  try {
    await rebuildDerivedTables(connection);
    return await derivedRows(connection);
  } finally {
    await connection.run('ROLLBACK');
  }
}

describe('derived tables (ADR 054)', () => {
  let store: DuckDbEventStore;
  let connection: DuckDBConnection;
  beforeEach(async () => {
    store = await createDuckDbEventStore({ file: ':memory:' });
    connection = await store.connect();
  });
  afterEach(async () => {
    connection.closeSync();
    await store.close();
  });

  it('hold what a rebuild from the events holds, whatever the arrival order, duplicates included', async () => {
    const wallet = { wallet_address: '0xaaa', wallet_provider: 'MetaMask' };
    const later = [
      event('wallet_connected', RANGE.fromMs + DAY_MS, { ...wallet, session_id: 's2', country: 'DE' }),
      event('tx', RANGE.fromMs + DAY_MS + 1000, {
        ...wallet,
        session_id: 's2',
        tx_id: 't1',
        tx_stage: 'submitted',
      }),
      event('tx', RANGE.fromMs + DAY_MS + 1500, { session_id: 's2', tx_id: 't2', tx_stage: 'failed' }),
      event('error', RANGE.fromMs + DAY_MS + 2000, {
        incident_id: 'inc_1',
        error_source: 'window',
        error_message: 'x',
      }),
      event('custom', RANGE.fromMs + DAY_MS + 3000, { event_name: 'swap', props: '{"pair":"ETH/USDC"}' }),
      event('identify', RANGE.fromMs + DAY_MS + 4000, { app_user_id: 'acct-1', props: '{"plan":"pro"}' }),
    ];
    // Older events (by the client's clock) arrive after newer ones, through both insert paths.
    const earlier = [
      event('wallet_connected', RANGE.fromMs - DAY_MS, {
        ...wallet,
        session_id: 's0',
        utm_campaign: 'launch',
      }),
      event('page_view', RANGE.fromMs - 2 * DAY_MS, { utm_campaign: ' ' }),
    ];
    await storeRows(store, later);
    await store.loadSegment(segmentOf(earlier));
    // A retried batch (some rows stored, some new) and a replayed one change nothing twice.
    const retry = event('tx', RANGE.fromMs + DAY_MS + 5000, {
      ...wallet,
      session_id: 's2',
      tx_id: 't1',
      tx_stage: 'confirmed',
    });
    await storeRows(store, [...later, retry]);
    await store.loadSegment(segmentOf([...earlier, retry]));

    const rows = await derivedRows(connection);
    expect(rows).toEqual(await rebuiltRows(connection));
    expect(rows.wallet_first_touches).toEqual([
      {
        project_id: PROJECT,
        wallet_address: '0xaaa',
        first_seen: new Date(RANGE.fromMs - DAY_MS),
        first_connected: new Date(RANGE.fromMs - DAY_MS),
        first_connected_session: 's0',
        first_id: earlier[0]?.id,
        first_source: null,
        first_campaign: 'launch',
      },
    ]);
    expect(rows.incident_occurrences).toHaveLength(1);
    expect(
      rows.custom_events?.toSorted((a, b) =>
        (a as { type: string }).type < (b as { type: string }).type ? -1 : 1,
      ),
    ).toMatchObject([
      { type: 'custom', event_name: 'swap', app_user_id: null, props: '{"pair":"ETH/USDC"}' },
      { type: 'identify', event_name: null, app_user_id: 'acct-1', props: '{"plan":"pro"}' },
    ]);
    expect(rows.transaction_failures).toMatchObject([{ tx_id: 't2', session_id: 's2' }]);
    expect(rows.sessions?.find((row) => (row as { session_id: string }).session_id === 's2')).toMatchObject({
      has_connected: true,
      submitted_txs: ['t1'],
      submitted_count: 1,
      connects: 1,
      value_sets: '[["DE"],[],["MetaMask"],[],[],[],[],[]]',
      countries: ['DE'],
      wallet_providers: ['MetaMask'],
    });
  });

  it('ignore an id sent again with other content, as the events do: the first one stored is the event (ADR 167)', async () => {
    const t = RANGE.fromMs + DAY_MS;
    const first = event('wallet_connected', t, {
      id: 'ev-once',
      session_id: 's1',
      wallet_address: '0xaaa',
      country: 'DE',
    });
    await storeRows(store, [first]);
    // An old event's id with a new time, another wallet and session (a client that reuses ids), beside a new
    // event; then one segment holding a new id twice, the second time with other content.
    const reused = {
      ...first,
      ts: t + 5 * DAY_MS,
      received_at: t + 5 * DAY_MS,
      session_id: 's9',
      wallet_address: '0xbbb',
    };
    const fresh = event('page_view', t + DAY_MS, { id: 'ev-new', session_id: 's2' });
    await store.loadSegment(segmentOf([reused, fresh]));
    const twice = event('page_view', t + 2 * DAY_MS, { id: 'ev-twice', session_id: 's3', path: '/a' });
    await store.loadSegment(
      segmentOf([twice, { ...twice, session_id: 's4', path: '/b', ts: t + 3 * DAY_MS }]),
    );

    const events = await connection.runAndReadAll(
      'SELECT id, session_id, wallet_address, path FROM events ORDER BY id',
    );
    expect(events.getRowObjectsJS()).toEqual([
      { id: 'ev-new', session_id: 's2', wallet_address: null, path: null },
      { id: 'ev-once', session_id: 's1', wallet_address: '0xaaa', path: null },
      { id: 'ev-twice', session_id: 's3', wallet_address: null, path: '/a' },
    ]);
    const rows = await derivedRows(connection);
    expect(rows).toEqual(await rebuiltRows(connection));
    expect(rows.wallet_sessions).toMatchObject([{ wallet_address: '0xaaa', session_id: 's1' }]);
    expect(rows.sessions?.map((row) => (row as { session_id: string }).session_id).sort()).toEqual([
      's1',
      's2',
      's3',
    ]);
  });

  it("keep a transaction's request and its session's key, the first stage by (time, id), whatever the arrival order (ADR 100)", async () => {
    const t = RANGE.fromMs + DAY_MS;
    const stages = [
      event('tx', t + 1000, { id: 'e-c', session_id: 's5', tx_id: 'tx2', tx_stage: 'confirmed' }),
      event('tx', t, { id: 'e-b', session_id: 's4', tx_id: 'tx2', tx_stage: 'submitted' }),
      event('tx', t, { id: 'e-a', session_id: 's3', tx_id: 'tx2', tx_stage: 'requested' }),
    ];
    // One load each, the latest first, then everything again (a replay).
    for (const row of stages) await store.loadSegment(segmentOf([row]));
    await store.loadSegment(segmentOf(stages));
    const rows = await derivedRows(connection);
    expect(rows).toEqual(await rebuiltRows(connection));
    const key = await connection.runAndReadAll(`SELECT session_key FROM events WHERE id = 'e-a'`);
    expect(rows.transaction_summaries).toMatchObject([
      { tx_id: 'tx2', request_id: 'e-a', session_key: key.getRowObjectsJS()[0]?.session_key },
    ]);
  });

  it("keep a transaction's sender, chain and latest receipts, and a wallet's sessions, whatever the arrival order (ADR 073)", async () => {
    const t = RANGE.fromMs + DAY_MS;
    const receipt = { gas_used: 21_000n, effective_gas_price: 3_000_000_000n };
    const stages = [
      event('tx', t, {
        session_id: 's1',
        wallet_address: '0xa',
        tx_id: 'tx1',
        tx_stage: 'requested',
        chain_id: 10,
      }),
      event('tx', t + 1000, {
        session_id: 's1',
        tx_from: '0xb',
        tx_id: 'tx1',
        tx_stage: 'submitted',
        chain_id: 1,
      }),
      event('tx', t + 2000, {
        session_id: 's1',
        tx_from: '0xb',
        tx_id: 'tx1',
        tx_stage: 'reverted',
        ...receipt,
      }),
      event('tx', t + 3000, {
        session_id: 's1',
        tx_from: '0xb',
        tx_id: 'tx1',
        tx_stage: 'reverted',
        gas_used: 50_000n,
        effective_gas_price: 2n,
      }),
      event('tx', t + 4000, {
        session_id: 's1',
        tx_from: '0xb',
        tx_id: 'tx1',
        tx_stage: 'confirmed',
        ...receipt,
      }),
      event('wallet_connected', t - 5000, {
        session_id: 's1',
        wallet_address: '0xa',
        country: 'FR',
        browser: 'Firefox',
      }),
      event('page_view', t + 500, { session_id: 's2', wallet_address: '0xa', country: 'DE' }),
    ];
    // Newest first, one load each, then everything again (a replay).
    for (const row of [...stages].reverse()) await store.loadSegment(segmentOf([row]));
    await store.loadSegment(segmentOf(stages));
    const rows = await derivedRows(connection);
    expect(rows).toEqual(await rebuiltRows(connection));
    expect(rows.transaction_summaries).toMatchObject([
      {
        tx_id: 'tx1',
        sender: '0xa',
        chain_id: 10n,
        confirmed_fee: 63_000_000_000_000n,
        reverted_fee: 100_000n,
      },
    ]);
    expect(rows.wallet_sessions).toMatchObject([
      {
        wallet_address: '0xa',
        session_id: 's1',
        first_ts: new Date(t - 5000),
        last_ts: new Date(t),
        connected_ts: new Date(t - 5000),
        countries: ['FR'],
        browsers: ['Firefox'],
        chains: [10n],
      },
      { wallet_address: '0xa', session_id: 's2', countries: ['DE'], connected_ts: null },
      {
        wallet_address: '0xb',
        session_id: 's1',
        first_ts: new Date(t + 1000),
        last_ts: new Date(t + 4000),
        chains: [1n],
      },
    ]);
  });

  it('answer the failed-transaction cost from the summaries, and a transaction with a receipt after the range from its events (ADR 073)', async () => {
    const t = RANGE.fromMs + DAY_MS;
    const stage = (txId: string, ts: number, txStage: string, gas: bigint | null) =>
      event('tx', ts, {
        session_id: 's1',
        wallet_address: '0xa',
        tx_id: txId,
        tx_stage: txStage,
        chain_id: 1,
        tx_to: '0xc',
        selector: '0x12345678',
        gas_used: gas,
        effective_gas_price: gas === null ? null : 2n,
      });
    await storeRows(store, [
      stage('tx1', t, 'requested', null),
      stage('tx1', t + 1000, 'reverted', 100n),
      // A later receipt of the same kind after the range: the range counts the one it holds.
      stage('tx1', RANGE.toMs + 1000, 'reverted', 7n),
      stage('tx2', t, 'requested', null),
      stage('tx2', t + 2000, 'confirmed', 50n),
    ]);
    const cost = await store.failedTransactionCost(PROJECT, RANGE);
    expect(cost.chains).toEqual([
      { chainId: 1, gasPaidWei: '300', gasBurnedWei: '200', reverted: 1, failedBeforeSubmission: 0 },
    ]);
    expect(cost.rows).toEqual([
      {
        day: new Date(t).toISOString().slice(0, 10),
        chainId: 1,
        contract: '0xc',
        selector: '0x12345678',
        reverted: 1,
        gasBurnedWei: '200',
      },
    ]);
    // The range that holds the later receipt counts that one alone.
    const later = await store.failedTransactionCost(PROJECT, {
      fromMs: RANGE.toMs,
      toMs: RANGE.toMs + DAY_MS,
    });
    expect(later.chains).toMatchObject([{ chainId: 1, gasPaidWei: '14', gasBurnedWei: '14', reverted: 1 }]);
  });

  it('merge a session that goes on across loads: a set gaining a member inside its span, a scalar alone moving, a landing value arriving late', async () => {
    const t = RANGE.fromMs + DAY_MS;
    // First load: the session begins (all its rows new: the merge is skipped).
    await store.loadSegment(
      segmentOf([
        event('page_view', t, { session_id: 's9', country: 'FR' }),
        event('page_view', t + 10_000, { session_id: 's9' }),
      ]),
    );
    // Inside its span, a value its sets lack: no scalar moves, a set gains.
    await store.loadSegment(segmentOf([event('page_view', t + 5_000, { session_id: 's9', country: 'DE' })]));
    // Later, nothing new in any set: only last_ts moves; then a landing UTM and a flag arrive.
    await store.loadSegment(segmentOf([event('page_view', t + 20_000, { session_id: 's9', country: 'FR' })]));
    await store.loadSegment(
      segmentOf([
        event('wallet_detected', t + 15_000, { session_id: 's9', utm_source: 'x', wallet_provider: 'Rabby' }),
      ]),
    );
    // A load of events already stored changes nothing.
    await store.loadSegment(segmentOf([event('page_view', t + 5_000, { session_id: 's9', country: 'DE' })]));

    const rows = await derivedRows(connection);
    expect(rows).toEqual(await rebuiltRows(connection));
    expect(rows.sessions).toMatchObject([
      {
        session_id: 's9',
        first_ts: new Date(t),
        last_ts: new Date(t + 20_000),
        has_wallet: true,
        landing_source: 'x',
        countries: ['DE', 'FR'],
        wallet_providers: ['Rabby'],
        utm_sources: ['x'],
        value_sets: '[["DE","FR"],[],["Rabby"],["x"],[],[],[],[]]',
      },
    ]);
  });

  it('keep one row per transaction whatever order its stages arrive in, and count outcomes as its stages do', async () => {
    const t = RANGE.fromMs + DAY_MS;
    const tx = (id: string, stage: string, ts: number) => event('tx', ts, { tx_id: id, tx_stage: stage });
    const stages = [
      tx('t1', 'requested', t),
      tx('t1', 'submitted', t + 1_000),
      tx('t1', 'confirmed', t + 9_000),
      // Two outcomes in one millisecond (a batch's receipts): the same row whichever is loaded first.
      tx('t2', 'requested', t + 2_000),
      tx('t2', 'submitted', t + 2_000),
      tx('t2', 'confirmed', t + 8_000),
      tx('t2', 'reverted', t + 8_000),
      tx('t3', 'requested', t + 3_000),
      tx('t3', 'failed', t + 3_500),
      tx('t4', 'requested', t + 4_000),
      tx('t4', 'rejected', t + 4_100),
      // Longer than the stage window: asked of the events, where only the stages within a day of the range
      // count. t5's request lies further back, so its submission in the range is its first stage seen; t6's
      // confirmation lies further on, so it stays requested.
      tx('t5', 'requested', RANGE.fromMs - 2 * DAY_MS),
      tx('t5', 'submitted', RANGE.fromMs + 3_600_000),
      tx('t6', 'requested', RANGE.toMs - 3_600_000),
      tx('t6', 'confirmed', RANGE.toMs + 2 * DAY_MS),
      // Requested before the range: not one of its transactions.
      tx('t7', 'requested', RANGE.fromMs - 60_000),
      tx('t7', 'reverted', RANGE.fromMs + 60_000),
    ];
    // Latest stages first, one load each, then everything again.
    for (const stage of [...stages].reverse()) await store.loadSegment(segmentOf([stage]));
    await storeRows(store, stages);
    const rows = await derivedRows(connection);
    expect(rows).toEqual(await rebuiltRows(connection));
    expect(rows.transaction_summaries).toHaveLength(7);
    expect(rows.transaction_summaries).toContainEqual(
      expect.objectContaining({ tx_id: 't2', status: 'reverted', is_submitted: true }),
    );

    // t1 confirmed, t2 reverted, t3 failed, t4 rejected, t5 submitted, t6 requested.
    const outcomes = { total: 6, submitted: 3, failed: 2, attempted: 4 };
    expect(await store.transactionOutcomes(PROJECT, bucketRange(RANGE))).toEqual(new Map([[0, outcomes]]));
    // The same as the stages themselves give (the query the derived table replaced).
    const reader = await connection.runAndReadAll(
      `WITH ${transactionsCte(['status', 'is_submitted'])}
       SELECT count(*)::DOUBLE AS total, count(*) FILTER (WHERE is_submitted)::DOUBLE AS submitted,
              count(*) FILTER (WHERE status IN ('reverted', 'failed'))::DOUBLE AS failed,
              count(*) FILTER (WHERE is_submitted OR status = 'failed')::DOUBLE AS attempted
         FROM transactions`,
      { project: PROJECT, from: BigInt(RANGE.fromMs), to: BigInt(RANGE.toMs) },
    );
    expect(reader.getRowObjectsJS()[0]).toEqual(outcomes);
    // Per day: t1-t4 on day 1, t5 on day 0, t6 on the last day.
    const daily = await store.transactionOutcomes(PROJECT, bucketRange(RANGE, '1d'));
    expect([...daily.keys()].sort((a, b) => a - b)).toEqual([0, 1, 9]);
    expect(daily.get(1)).toEqual({ total: 4, submitted: 2, failed: 2, attempted: 3 });
  });

  it("keep each incident's life and members whatever the arrival order: a failure before or after its error", async () => {
    const t = RANGE.fromMs + DAY_MS;
    const sending = { error_source: 'wallet', rpc_method: 'eth_sendTransaction', session_id: 's1' };
    const failure = (tx: string, at: number, session = 's1', stage = 'failed') =>
      event('tx', at, { session_id: session, tx_id: tx, tx_stage: stage });
    const first = event('error', t, {
      ...sending,
      incident_id: 'inc_w',
      error_message: 'a',
      error_code: 4001,
    });
    // Two occurrences in one millisecond: the greater id is the latest; it has no code, the other one has.
    const tiedLow = event('error', t + 60_000, {
      ...sending,
      incident_id: 'inc_w',
      error_message: 'b',
      error_code: 1,
      wallet_address: '0xw',
    });
    const tiedHigh = event('error', t + 60_000, { ...sending, incident_id: 'inc_w', error_message: 'c' });
    const loads = [
      [failure('tx-before', t - 5_000, 's1', 'reverted'), failure('tx-far', t + 30_000)],
      [first, event('error', t + 2 * DAY_MS, { incident_id: 'inc_p', error_source: 'page', user_id: 'u2' })],
      [failure('tx-after', t + 9_000), failure('tx-other-session', t + 1_000, 's2'), tiedHigh],
      [tiedLow, failure('tx-tied', t + 60_000 + 10_000)],
    ];
    // The error first, failures around it later (one in the load of a tied occurrence), then all replayed.
    for (const rows of [loads[1], loads[3], loads[0], loads[2]]) await storeRows(store, rows ?? []);
    const rows = await derivedRows(connection);
    expect(rows).toEqual(await rebuiltRows(connection));
    await store.loadSegment(segmentOf(loads.flat()));
    expect(await derivedRows(connection)).toEqual(rows);
    // `page` is no incident source: that incident has only its first occurrence of any source.
    expect(rows.incident_spans).toEqual([
      {
        project_id: PROJECT,
        incident_id: 'inc_p',
        first_any_ts: new Date(t + 2 * DAY_MS),
        ...Object.fromEntries(
          ['error_source', 'first_ts', 'last_ts', 'latest_id', 'title_id', 'title', 'code_id', 'code']
            .concat(['method_id', 'method', 'wallet_ts', 'wallet_id', 'wallet'])
            .map((column) => [column, null]),
        ),
      },
      {
        project_id: PROJECT,
        incident_id: 'inc_w',
        first_any_ts: new Date(t),
        error_source: 'wallet',
        first_ts: new Date(t),
        last_ts: new Date(t + 60_000),
        latest_id: tiedHigh.id,
        title_id: tiedHigh.id,
        title: 'c',
        // The greatest id at the latest time that has a code.
        code_id: tiedLow.id,
        code: 1n,
        method_id: tiedHigh.id,
        method: 'eth_sendTransaction',
        wallet_ts: new Date(t + 60_000),
        wallet_id: tiedLow.id,
        wallet: '0xw',
      },
    ]);
    const members = (kind: string) =>
      rows.incident_members
        ?.filter((row) => (row as { kind: string }).kind === kind)
        .map((row) => (row as { member: string }).member);
    expect(members('occurrence')).toEqual([first.id, tiedHigh.id, tiedLow.id].sort());
    expect(members('user')).toEqual(['u1']);
    expect(members('wallet')).toEqual(['0xw']);
    expect(members('day')).toEqual([new Date(t).toISOString().slice(0, 10)]);
    expect(members('failed_tx')).toEqual(['tx-after', 'tx-before', 'tx-tied']);

    // A wallet's events deleted: the project's rows derived again.
    await store.deleteWalletEvents(PROJECT, '0xw');
    const left = await derivedRows(connection);
    expect(left).toEqual(await rebuiltRows(connection));
    expect(left.incident_spans?.[1]).toMatchObject({ latest_id: tiedHigh.id, code: null, wallet: null });
    expect(
      left.incident_members?.filter((row) => (row as { kind: string }).kind === 'failed_tx'),
    ).toHaveLength(3);
  });

  it('find an error event by id through its occurrence time, and one without an incident too', async () => {
    const at = RANGE.fromMs + DAY_MS + 123;
    const rows = [
      event('page_view', at),
      event('error', at, { incident_id: 'inc_1', error_source: 'window', error_message: 'boom' }),
      event('error', at + 1, { error_source: 'sdk', error_message: 'no incident' }),
    ];
    await storeRows(store, rows);
    const [notAnError, withIncident, withoutIncident] = rows.map((row) => row.id) as [string, string, string];
    expect(await store.occurrenceById(PROJECT, withIncident)).toMatchObject({
      eventId: withIncident,
      timeMs: at,
      message: 'boom',
    });
    expect(await store.occurrenceById(PROJECT, withoutIncident)).toMatchObject({
      eventId: withoutIncident,
      timeMs: at + 1,
      message: 'no incident',
    });
    // Not an error event: not an occurrence.
    expect(await store.occurrenceById(PROJECT, notAnError)).toBeNull();
  });

  it('let a wallet first seen before the range not count as new, and one first seen in it count', async () => {
    await storeRows(store, [
      event('wallet_connected', RANGE.fromMs + 3 * DAY_MS, { wallet_address: '0xold', session_id: 's5' }),
      event('wallet_connected', RANGE.fromMs + 4 * DAY_MS, { wallet_address: '0xnew', session_id: 's6' }),
    ]);
    const daily = bucketRange(RANGE, '1d');
    expect([...(await store.newWallets(PROJECT, daily))]).toEqual([
      [3, 1],
      [4, 1],
    ]);
    // Arriving late: an error event carried 0xold before the range.
    await storeRows(store, [
      event('error', RANGE.fromMs - 1, { wallet_address: '0xold', error_source: 'sdk' }),
    ]);
    expect([...(await store.newWallets(PROJECT, daily))]).toEqual([[4, 1]]);
    expect(await store.walletCounts(PROJECT, RANGE)).toEqual({ connected: 2, fresh: 1 });
  });

  it('count active days over whole days and the pieces of partly covered ones', async () => {
    const noon = (day: number) => DAY0 + day * DAY_MS + DAY_MS / 2;
    await storeRows(store, [
      event('page_view', noon(10), { wallet_address: '0xw1' }),
      event('page_view', noon(10) + 1, { wallet_address: '0xw1' }),
      event('page_view', noon(11), { user_id: 'u2' }),
      event('page_view', noon(12) + 3_600_000, { wallet_address: '0xw2' }),
      event('page_view', noon(9), { wallet_address: '0xw1' }),
    ]);
    // From noon of day 10 to noon of day 12: half of day 10, day 11, half of day 12 (the 13:00 event is out).
    const range = { fromMs: noon(10), toMs: noon(12) };
    expect(await store.activeDays(PROJECT, range)).toEqual({
      walletDays: 1,
      userDays: 2,
      // The two days before it: noon of day 8 to noon of day 10 (day 9's wallet; day 10's events are later).
      previousWalletDays: 1,
    });
  });

  it('recompute a session the range cuts through from its events in the range', async () => {
    await storeRows(store, [
      event('wallet_connected', RANGE.fromMs - 60_000, { wallet_address: '0xc' }),
      event('page_view', RANGE.fromMs + 60_000),
      event('signature', RANGE.toMs - 1, { sig_stage: 'signed' }),
      // A signature event without a stage, alone in its session: not signed, and still stored.
      event('signature', RANGE.fromMs + 5, { session_id: 's9', user_id: 'u9' }),
      event('tx', RANGE.toMs + 1, { tx_id: 't9', tx_stage: 'submitted' }),
    ]);
    expect(await store.funnelCounts(PROJECT, RANGE, {})).toEqual({
      totalUsers: 2,
      haveWallets: 0,
      haveConnectedWallet: 0,
      haveExecutedTransaction: 0,
      haveExecutedMultipleTransactions: 0,
      signedData: 1,
    });
  });

  it('recompute only the (session, user) the range cuts, when another user has the same session id', async () => {
    await storeRows(store, [
      // u1's s1 crosses `from`: only its in-range page view counts, not the connection before.
      event('wallet_connected', RANGE.fromMs - 60_000, { wallet_address: '0xc' }),
      event('page_view', RANGE.fromMs + 60_000),
      // u2 reuses the id s1, wholly inside the range: its stored row counts as it is.
      event('wallet_connected', RANGE.fromMs + 1_000, { user_id: 'u2', wallet_address: '0xf' }),
      event('tx', RANGE.fromMs + 2_000, { user_id: 'u2', tx_id: 't2', tx_stage: 'submitted' }),
    ]);
    expect(await store.funnelCounts(PROJECT, RANGE, {})).toEqual({
      totalUsers: 2,
      haveWallets: 1,
      haveConnectedWallet: 1,
      haveExecutedTransaction: 1,
      haveExecutedMultipleTransactions: 0,
      signedData: 0,
    });
    // The port answers the rows in no particular order (the service sorts them).
    const rows = await store.attributionCounts(PROJECT, RANGE, 'campaign', {});
    const total = rows.find((row) => row.isTotal);
    expect(total).toMatchObject({ isTotal: true, sessions: 2, users: 2, connects: 1, transactions: 1 });
  });

  it('tell users apart by their ids when two of them share a user key', async () => {
    await storeRows(store, [
      event('wallet_connected', RANGE.fromMs + 1_000, {
        user_id: 'u1',
        session_id: 's1',
        country: 'DE',
        wallet_address: '0xa',
      }),
      event('tx', RANGE.fromMs + 2_000, {
        user_id: 'u1',
        session_id: 's1',
        country: 'DE',
        tx_id: 't1',
        tx_stage: 'submitted',
      }),
      event('page_view', RANGE.fromMs + 3_000, { user_id: 'u2', session_id: 's2', country: 'DE' }),
      event('page_view', RANGE.fromMs + 4_000, { user_id: 'u3', session_id: 's3', country: 'FR' }),
    ]);
    // Two keys equal, as two user ids with the same MD5 half would make them (ADR 054).
    await inTransaction(connection, async () => {
      for (const table of ['sessions', 'keyed_user_lives']) {
        await connection.run(`UPDATE ${table} SET user_key = 7 WHERE user_id IN ('u1', 'u2')`);
      }
    });
    expect(await store.funnelCounts(PROJECT, RANGE, {})).toMatchObject({
      totalUsers: 3,
      haveConnectedWallet: 1,
      haveExecutedTransaction: 1,
    });
    const total = (await store.attributionCounts(PROJECT, RANGE, 'campaign', {})).find((row) => row.isTotal);
    expect(total).toMatchObject({ sessions: 3, users: 3, usersWithConnect: 1, usersWithTransaction: 1 });
    const options = await store.filterOptions(PROJECT, RANGE);
    expect(options.countries).toEqual([
      { value: 'DE', users: 2 },
      { value: 'FR', users: 1 },
    ]);
  });

  it('count a user with several value sets in the range once per value, beside users with one', async () => {
    await storeRows(store, [
      event('page_view', RANGE.fromMs + 1_000, {
        user_id: 'u1',
        session_id: 's1',
        country: 'DE',
        browser: 'Chrome',
      }),
      event('page_view', RANGE.fromMs + 2_000, {
        user_id: 'u1',
        session_id: 's2',
        country: 'DE',
        browser: 'Firefox',
      }),
      event('page_view', RANGE.fromMs + 3_000, {
        user_id: 'u2',
        session_id: 's3',
        country: 'DE',
        browser: 'Chrome',
      }),
      event('page_view', RANGE.fromMs + 4_000, {
        user_id: 'u3',
        session_id: 's4',
        country: 'FR',
        browser: 'Firefox',
      }),
      event('page_view', RANGE.fromMs + 5_000, {
        user_id: 'u3',
        session_id: 's5',
        country: 'FR',
        browser: 'Firefox',
      }),
    ]);
    const options = await store.filterOptions(PROJECT, RANGE);
    expect(options.countries).toEqual([
      { value: 'DE', users: 2 },
      { value: 'FR', users: 1 },
    ]);
    expect(options.browsers).toEqual([
      { value: 'Chrome', users: 2 },
      { value: 'Firefox', users: 2 },
    ]);
  });

  it('go with the project when its events are deleted', async () => {
    await storeRows(store, [
      event('wallet_connected', RANGE.fromMs, { wallet_address: '0xd' }),
      event('custom', RANGE.fromMs + 1, { event_name: 'swap' }),
    ]);
    await store.deleteProjectEvents(PROJECT);
    for (const rows of Object.values(await derivedRows(connection))) expect(rows).toEqual([]);
  });

  it("hold what a rebuild holds after a wallet's, a user's and old events are deleted", async () => {
    await storeRows(store, [
      event('wallet_connected', RANGE.fromMs - DAY_MS, { wallet_address: '0xa', session_id: 's1' }),
      event('wallet_connected', RANGE.fromMs + DAY_MS, { wallet_address: '0xb', session_id: 's2' }),
      event('tx', RANGE.fromMs + DAY_MS + 1, {
        tx_from: '0xb',
        session_id: 's2',
        tx_id: 't1',
        tx_stage: 'failed',
      }),
      event('page_view', RANGE.fromMs + 2 * DAY_MS, { user_id: 'u2', session_id: 's3', country: 'FR' }),
      event('page_view', RANGE.fromMs + 3 * DAY_MS, { wallet_address: '0xa', session_id: 's4' }),
      event('custom', RANGE.fromMs - DAY_MS + 1, { event_name: 'old', session_id: 's1' }),
      event('custom', RANGE.fromMs + DAY_MS + 2, {
        event_name: 'sent',
        wallet_address: '0xb',
        session_id: 's2',
      }),
      event('identify', RANGE.fromMs + 2 * DAY_MS + 1, {
        user_id: 'u2',
        app_user_id: 'acct-2',
        session_id: 's3',
      }),
      event('custom', RANGE.fromMs + 3 * DAY_MS + 1, { event_name: 'kept', session_id: 's4' }),
    ]);
    const customNames = async () =>
      ((await derivedRows(connection)).custom_events as { ts: Date; event_name: string | null }[])
        .sort((a, b) => a.ts.getTime() - b.ts.getTime())
        .map((row) => row.event_name ?? 'identify');
    expect(await customNames()).toEqual(['old', 'sent', 'identify', 'kept']);
    await store.deleteWalletEvents(PROJECT, '0xB');
    let rows = await derivedRows(connection);
    expect(rows).toEqual(await rebuiltRows(connection));
    expect(rows.transaction_failures).toEqual([]);
    expect(rows.transaction_summaries).toEqual([]);
    expect(await customNames()).toEqual(['old', 'identify', 'kept']);
    expect(
      rows.wallet_first_touches?.map((row) => (row as { wallet_address: string }).wallet_address),
    ).toEqual(['0xa']);

    await store.deleteUserEvents(PROJECT, 'u2');
    rows = await derivedRows(connection);
    expect(rows).toEqual(await rebuiltRows(connection));
    expect(rows.user_days).toHaveLength(2);
    expect(await customNames()).toEqual(['old', 'kept']);

    // The first sighting of 0xa moves to the page view that is left.
    await store.deleteEventsBefore(PROJECT, new Date(RANGE.fromMs));
    rows = await derivedRows(connection);
    expect(rows).toEqual(await rebuiltRows(connection));
    expect(rows.wallet_first_touches).toMatchObject([
      { wallet_address: '0xa', first_seen: new Date(RANGE.fromMs + 3 * DAY_MS), first_connected: null },
    ]);
    expect(await customNames()).toEqual(['kept']);
    expect((await store.projectEvents(PROJECT)).map((row) => row.type)).toEqual(['page_view', 'custom']);
  });

  it('are built for a file that has events but not them yet', async () => {
    await storeRows(store, [event('wallet_connected', RANGE.fromMs, { wallet_address: '0xe' })]);
    const expected = await derivedRows(connection);
    await inTransaction(connection, async () => {
      for (const name of DERIVED_TABLE_NAMES) await connection.run(`DELETE FROM ${name}`);
      await connection.run('DELETE FROM derived_tables_version');
    });
    expect(await ensureDerivedTables(connection)).toEqual(DERIVED_TABLE_NAMES);
    expect(await derivedRows(connection)).toEqual(expected);
    expect(await ensureDerivedTables(connection)).toEqual([]);
  });

  it('are rebuilt only where their definition is newer than the file’s version', async () => {
    await storeRows(store, [
      event('page_view', RANGE.fromMs, { user_id: 'u1' }),
      event('page_view', RANGE.fromMs + 3 * DAY_MS, { user_id: 'u1' }),
      event('wallet_connected', RANGE.fromMs + DAY_MS, { user_id: 'u2', wallet_address: '0xe' }),
    ]);
    const expected = await derivedRows(connection);
    expect(expected.keyed_user_lives).toHaveLength(2);
    // A file of version 4: no `keyed_user_lives` yet; a table of version 4 emptied by hand stays as it is.
    await inTransaction(connection, async () => {
      await connection.run('DROP TABLE keyed_user_lives');
      await connection.run('DELETE FROM user_days');
      await connection.run('UPDATE derived_tables_version SET version = 4');
    });
    expect(await ensureDerivedTables(connection)).toEqual([
      'wallet_first_touches',
      'keyed_user_lives',
      'wallet_active_days',
      'wallet_quarters',
      'user_quarters',
      'sessions',
      'transaction_summaries',
      'incident_spans',
      'incident_members',
      'custom_events',
      'wallet_sessions',
      'keyed_sessions',
    ]);
    expect(await derivedRows(connection)).toEqual({ ...expected, user_days: [] });
  });

  it('build the incident tables, and those of versions 7 to 10, for a file of version 5', async () => {
    await storeRows(store, [
      event('error', RANGE.fromMs, { incident_id: 'inc_1', error_source: 'window', error_message: 'x' }),
      event('page_view', RANGE.fromMs + DAY_MS, { user_id: 'u2' }),
    ]);
    const expected = await derivedRows(connection);
    expect(expected.incident_spans).toHaveLength(1);
    await inTransaction(connection, async () => {
      await connection.run('DROP TABLE incident_spans');
      await connection.run('DROP TABLE incident_members');
      await connection.run('DELETE FROM user_days');
      await connection.run('UPDATE derived_tables_version SET version = 5');
    });
    expect(await ensureDerivedTables(connection)).toEqual([
      'wallet_first_touches',
      'keyed_user_lives',
      'wallet_active_days',
      'wallet_quarters',
      'user_quarters',
      'sessions',
      'transaction_summaries',
      'incident_spans',
      'incident_members',
      'custom_events',
      'wallet_sessions',
      'keyed_sessions',
    ]);
    expect(await derivedRows(connection)).toEqual({ ...expected, user_days: [] });
  });

  it('give `sessions` and `keyed_user_lives` their user keys for a file of version 6, and rebuild nothing else but newer tables', async () => {
    await storeRows(store, [
      event('page_view', RANGE.fromMs, { user_id: 'u1', session_id: 's1' }),
      event('wallet_connected', RANGE.fromMs + DAY_MS, {
        user_id: 'u2',
        session_id: 's2',
        wallet_address: '0xe',
      }),
    ]);
    const expected = await derivedRows(connection);
    expect(expected.sessions).toHaveLength(2);
    // Version 6's tables had no `user_key`.
    await inTransaction(connection, async () => {
      await connection.run('ALTER TABLE sessions DROP COLUMN user_key');
      await connection.run('ALTER TABLE keyed_user_lives DROP COLUMN user_key');
      await connection.run('DELETE FROM user_days');
      await connection.run('UPDATE derived_tables_version SET version = 6');
    });
    expect(await ensureDerivedTables(connection)).toEqual([
      'wallet_first_touches',
      'keyed_user_lives',
      'wallet_active_days',
      'wallet_quarters',
      'user_quarters',
      'sessions',
      'transaction_summaries',
      'incident_spans',
      'custom_events',
      'wallet_sessions',
      'keyed_sessions',
    ]);
    expect(await derivedRows(connection)).toEqual({ ...expected, user_days: [] });
    const keys = await connection.runAndReadAll(
      `SELECT DISTINCT s.user_id, s.user_key = l.user_key AS same FROM sessions s JOIN keyed_user_lives l USING (project_id, user_id) ORDER BY ALL`,
    );
    expect(keys.getRowObjectsJS()).toEqual([
      { user_id: 'u1', same: true },
      { user_id: 'u2', same: true },
    ]);
  });

  it('build `custom_events` for a file of version 7, and rebuild nothing else but the tables of versions 9 and 10', async () => {
    await storeRows(store, [
      event('page_view', RANGE.fromMs, { user_id: 'u1' }),
      event('custom', RANGE.fromMs + 1, { user_id: 'u1', event_name: 'swap', props: '{"pair":"ETH/USDC"}' }),
      event('identify', RANGE.fromMs + 2, { user_id: 'u1', app_user_id: 'acct-1' }),
    ]);
    const expected = await derivedRows(connection);
    expect(expected.custom_events).toHaveLength(2);
    await inTransaction(connection, async () => {
      await connection.run('DROP TABLE custom_events');
      await connection.run('DELETE FROM user_days');
      await connection.run('UPDATE derived_tables_version SET version = 7');
    });
    expect(await ensureDerivedTables(connection)).toEqual([
      'wallet_first_touches',
      'keyed_user_lives',
      'wallet_active_days',
      'wallet_quarters',
      'user_quarters',
      'transaction_summaries',
      'incident_spans',
      'custom_events',
      'wallet_sessions',
      'keyed_sessions',
    ]);
    expect(await derivedRows(connection)).toEqual({ ...expected, user_days: [] });
  });

  it('rename the tables for a file of version 9 (ADR 090): the old names dropped, the new ones rebuilt, nothing else', async () => {
    await storeRows(store, [
      event('page_view', RANGE.fromMs, { user_id: 'u1' }),
      event('wallet_connected', RANGE.fromMs + DAY_MS, { user_id: 'u2', wallet_address: '0xe' }),
      event('error', RANGE.fromMs + 2, { incident_id: 'inc_1', error_source: 'window', error_message: 'x' }),
      event('custom', RANGE.fromMs + 3, { user_id: 'u1', event_name: 'swap', wallet_address: '0xe' }),
    ]);
    const expected = await derivedRows(connection);
    for (const name of ['wallet_first_touches', 'keyed_user_lives', 'wallet_active_days', 'incident_spans'])
      expect(expected[name]?.length, name).toBeGreaterThan(0);
    expect(expected.custom_events).toMatchObject([{ wallet_address: '0xe', tx_from: null }]);
    // A file of version 9: the tables under their old names, `custom_events` without the delete columns.
    await inTransaction(connection, async () => {
      await connection.run('ALTER TABLE wallet_first_touches RENAME TO wallet_firsts');
      await connection.run('ALTER TABLE keyed_user_lives RENAME TO user_lives');
      await connection.run('ALTER TABLE wallet_active_days RENAME TO wallet_days');
      await connection.run('ALTER TABLE incident_spans RENAME TO incident_lives');
      await connection.run(
        'CREATE TABLE custom_events_9 AS SELECT project_id, id, type, ts, user_id, event_name, app_user_id, props FROM custom_events',
      );
      await connection.run('DROP TABLE custom_events');
      await connection.run('ALTER TABLE custom_events_9 RENAME TO custom_events');
      await connection.run('DELETE FROM user_days');
      await connection.run('UPDATE derived_tables_version SET version = 9');
    });
    expect(await ensureDerivedTables(connection)).toEqual([
      'wallet_first_touches',
      'keyed_user_lives',
      'wallet_active_days',
      'wallet_quarters',
      'user_quarters',
      'transaction_summaries',
      'incident_spans',
      'custom_events',
      'keyed_sessions',
    ]);
    expect(await derivedRows(connection)).toEqual({ ...expected, user_days: [] });
    const tables = await connection.runAndReadAll(
      `SELECT table_name FROM duckdb_tables() WHERE table_name IN ('wallet_firsts', 'user_lives', 'wallet_days', 'incident_lives')`,
    );
    expect(tables.getRowObjectsJS()).toEqual([]);
    expect(await ensureDerivedTables(connection)).toEqual([]);
  });
});
