import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import {
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import type { WalletListQuery } from '../../src/modules/event-store/wallet-questions.ts';
import { bucketRange, type TimeRange } from '../../src/reading/time-range.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { storeRows } from '../support/event-stores.ts';
import { workerChdb } from '../support/worker-chdb.ts';
import { askBoth } from './both-engines.ts';
import { eventBuilder } from './event-builder.ts';

/**
 * A transaction's status is its latest stage by time, then rank, then the greatest event id
 * (docs/analytics.md): two outcomes of one transaction logged in the same millisecond give the same status
 * on both engines, in every figure that reads it (the wallet page, the history and its status filter, the
 * outcomes, the alerts' outcomes, the Wallets list), whichever load brought which outcome. The ties: the
 * greater id on `confirmed` (A), on `reverted` (B), on `failed` (C), and on an id that begins with the
 * other's (D: `tie-d-2-z` after `tie-d-2`, a byte below any digit). Each engine loads the events in two
 * segments, the winner of A and D in the second, the loser of B in the second.
 */

const PROJECT = 'p-stage-ties';
const W = `0x${'a1'.repeat(20)}`;
const at = (time: string) => Date.parse(`2026-03-02T${time}Z`);
const SLOW = 120_000;

const event = eventBuilder(PROJECT);
const stage = (txId: string, txStage: string, ts: number, id?: string): EventRow => ({
  ...event('tx', ts, { tx_id: txId, tx_stage: txStage, tx_kind: 'coin', tx_from: W, chain_id: 1 }),
  ...(id ? { id } : {}),
});
const requested = (txId: string, time: string) => [
  event('wallet_connected', at(time) - 1_000, { wallet_address: W }),
  stage(txId, 'requested', at(time)),
  stage(txId, 'submitted', at(time) + 1_000),
];

const FIRST_LOAD: EventRow[] = [
  ...requested('A', '10:00:00'),
  stage('A', 'reverted', at('10:00:05'), 'tie-a-1'),
  ...requested('B', '11:00:00'),
  stage('B', 'reverted', at('11:00:05'), 'tie-b-2'),
  ...requested('C', '12:00:00'),
  stage('C', 'confirmed', at('12:00:05'), 'tie-c-1'),
  stage('C', 'failed', at('12:00:05'), 'tie-c-2'),
  ...requested('D', '13:00:00'),
  stage('D', 'reverted', at('13:00:05'), 'tie-d-2'),
  // Ordinary ones: confirmed, reverted, and a request and its submission in one millisecond (by rank).
  ...requested('E', '14:00:00'),
  stage('E', 'confirmed', at('14:00:05')),
  ...requested('F', '15:00:00'),
  stage('F', 'reverted', at('15:00:05')),
  stage('G', 'submitted', at('16:00:00'), 'g-1'),
  stage('G', 'requested', at('16:00:00'), 'g-2'),
];
const SECOND_LOAD: EventRow[] = [
  stage('A', 'confirmed', at('10:00:05'), 'tie-a-2'),
  stage('B', 'confirmed', at('11:00:05'), 'tie-b-1'),
  stage('D', 'confirmed', at('13:00:05'), 'tie-d-2-z'),
];

const STATUSES = {
  A: 'confirmed',
  B: 'reverted',
  C: 'failed',
  D: 'confirmed',
  E: 'confirmed',
  F: 'reverted',
  G: 'submitted',
};

/** The whole day (whole UTC days on ClickHouse), and one cut mid-day (its partial days from the events). */
const RANGES: Record<string, TimeRange> = {
  'the day': { fromMs: at('00:00:00'), toMs: at('00:00:00') + 86_400_000 },
  'cut mid-day': { fromMs: at('09:30:00'), toMs: at('20:00:00') },
};

let duck: DuckDbEventStore;
let ch: ClickHouseEventStore;

beforeAll(async () => {
  duck = await createDuckDbEventStore({ file: ':memory:' });
  const chdb = await workerChdb();
  ch = await templatedClickHouseStore(`${chdb.url}/pf_stage_ties`);
  for (const store of [duck, ch]) {
    await storeRows(store, FIRST_LOAD);
    await storeRows(store, SECOND_LOAD);
  }
}, SLOW);

afterAll(async () => {
  await ch?.close();
  await duck?.close();
});

/** One question to both engines, its answer (`view` of it) the wanted one on each. */
async function expectBoth<T>(
  question: (store: EventStore) => Promise<T>,
  view: (answer: T) => unknown,
  want: unknown,
  what = '',
) {
  const [fromClickHouse, fromDuckDb] = await askBoth<EventStore, T>(ch, duck, question);
  expect(view(fromClickHouse), `ClickHouse ${what}`).toEqual(want);
  expect(view(fromDuckDb), `DuckDB ${what}`).toEqual(want);
}

const listQuery = (range: TimeRange): WalletListQuery => ({
  range,
  asOfDay: '2026-03-02',
  search: null,
  stage: null,
  source: null,
  campaign: null,
  chainId: null,
  country: null,
  sort: 'failed',
  descending: true,
  limit: 10,
  after: null,
});

describe('two outcomes of a transaction in one millisecond: the greatest event id is its status', {
  timeout: SLOW,
}, () => {
  it('the wallet page counts the same reverted and failed transactions on both engines', async () => {
    await expectBoth(
      (store) => store.walletProfile(PROJECT, W),
      (profile) => ({
        transactions: profile?.transactions,
        reverted: profile?.reverted,
        failedBeforeSubmission: profile?.failedBeforeSubmission,
        chainReverted: profile?.gas.map((chain) => [chain.chainId, chain.reverted]),
      }),
      { transactions: 7, reverted: 2, failedBeforeSubmission: 1, chainReverted: [[1, 2]] },
    );
  });

  for (const [name, range] of Object.entries(RANGES)) {
    it(`the history's statuses and its status filter agree (${name})`, async () => {
      const page = { limit: 50, after: null };
      await expectBoth(
        (store) => store.transactionHistory(PROJECT, range, page),
        (rows) => Object.fromEntries(rows.map((row) => [row.id, row.status])),
        STATUSES,
      );
      for (const status of ['reverted', 'confirmed', 'failed']) {
        const want = Object.entries(STATUSES)
          .filter(([, latest]) => latest === status)
          .map(([id]) => id);
        await expectBoth(
          (store) => store.transactionHistory(PROJECT, range, page, { status }),
          (rows) => rows.map((row) => row.id).sort(),
          want,
          status,
        );
        await expectBoth(
          (store) => store.transactionCount(PROJECT, range, { status }),
          Number,
          want.length,
          status,
        );
      }
    });

    it(`the outcomes, the alerts' outcomes and the Wallets list count the same failures (${name})`, async () => {
      // B and F reverted, C failed.
      await expectBoth(
        (store) => store.transactionOutcomes(PROJECT, bucketRange(range)),
        (outcomes) => [...outcomes.values()].map((o) => [o.total, o.failed]),
        [[7, 3]],
      );
      const window = { projectId: PROJECT, ...range, bucketMs: range.toMs - range.fromMs };
      await expectBoth(
        (store) => store.alertTxOutcomes([window]),
        (outcomes) => outcomes.map((o) => [o.total, o.failed]),
        [[7, 3]],
      );
      for (const sort of ['failed', 'last_seen'] as const) {
        await expectBoth(
          (store) => store.walletList(PROJECT, { ...listQuery(range), sort }),
          (rows) => rows.map((row) => [row.wallet, row.transactions, row.failed]),
          [[W, 7, 3]],
          sort,
        );
      }
    });
  }

  it('a transaction lists its stages oldest first, the latest (its status) last', async () => {
    for (const [id, status] of Object.entries(STATUSES)) {
      await expectBoth(
        (store) => store.transactionEvents(PROJECT, id),
        (stages) => stages.map((stage) => stage.stage).at(-1),
        status,
        id,
      );
      const [stages, expectedStages] = await askBoth<EventStore, unknown>(ch, duck, (store) =>
        store.transactionEvents(PROJECT, id),
      );
      expect(stages, id).toEqual(expectedStages);
    }
  });
});
