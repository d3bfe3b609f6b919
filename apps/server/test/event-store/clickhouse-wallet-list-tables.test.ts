import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { ClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import { walletListDaysOfEvents } from '../../src/modules/event-store/clickhouse/wallet-list-days.ts';
import { walletListTransactionsOfEvents } from '../../src/modules/event-store/clickhouse/wallet-list-transactions.ts';
import { walletSentTransactionsOfEvents } from '../../src/modules/event-store/clickhouse/wallet-sent-transactions.ts';
import { walletTouchesOfEvents } from '../../src/modules/event-store/clickhouse/wallet-touches.ts';
import { createDuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import { createWalletService } from '../../src/modules/wallets/service.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { askBoth } from './both-engines.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { databaseAtVersion } from './clickhouse-older-database.ts';
import { eventBuilder, sequence } from './event-builder.ts';
import { loadScattered, writeSegment } from './segment-file.ts';

/**
 * `wallet_list_days` and `wallet_list_transactions` (ADR 110): what the Wallets list reads of each
 * wallet-day (latest times, per chain and per country) and of each transaction-day (first stage, sender,
 * latest stage, latest receipts' fees). Whatever the loads (a wallet's day or a transaction's stages
 * spread over several loads, out of order, each event loaded twice) and the deletes (a wallet, old events
 * cut mid-day, a user, a project), both hold what a rebuild from the stored events holds, and the list
 * answers exactly as DuckDB's (which reads neither) in every sort and filter, for ranges at midnight, cut
 * mid-day (the partial days read from `events`) and within one day, in UTC and in a zone.
 */

const PROJECT = 'p-ch-wallet-list';
const OTHER = 'p-ch-wallet-list-other';
const HOUR = 3_600_000;
const DAY = 86_400_000;
const MINUTE = 60_000;
const DAY0 = Date.UTC(2026, 2, 1);
const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const WALLETS = Array.from({ length: 16 }, (_, index) => wallet(index + 1));

/**
 * Five users over five days, an event every 36 minutes or so, each with a chain and a country or none:
 * the events carry one of the three newest wallets of a pool that grows by one every seven hours (or
 * none); transactions of up to three stages in a row sent from another wallet or none (then the
 * connected wallet sends), receipts with fees (one gas figure past the limit: no fee), and transactions
 * whose stages lie more than a day apart (across the one-day rule's edge of a range).
 */
function fixture(projectId: string, seed: number): EventRow[] {
  const event = eventBuilder(projectId);
  const pick = sequence(seed);
  const rows: EventRow[] = [];
  for (let index = 0; index < 200; index += 1) {
    const user = `u${index % 5}`;
    const ts = DAY0 + index * 36 * MINUTE + pick([0, 7, 19, 33]) * MINUTE + pick([0, 500]);
    const type = pick(['page_view', 'wallet_connected', 'tx', 'tx', 'error']);
    const newest = Math.floor(index / 12);
    const carried = pick([...WALLETS.slice(Math.max(0, newest - 2), newest + 1), null]);
    const fields: Partial<EventRow> = {
      user_id: user,
      session_id: `${user}-${Math.floor(ts / DAY)}`,
      chain_id: pick([1, 137, null]),
      country: pick(['US', 'DE', null]),
      utm_source: pick(['news', 'ads', null]),
      utm_campaign: pick(['spring', null]),
    };
    if (type !== 'page_view' || pick([true, false])) fields.wallet_address = carried;
    if (type === 'wallet_connected') fields.wallet_address = carried ?? (WALLETS[newest] as string);
    if (type === 'tx') {
      const stage = pick(['requested', 'submitted', 'confirmed', 'reverted', 'failed', 'confirmed']);
      fields.tx_id = `tx-${Math.floor(index / 3)}`;
      fields.tx_stage = stage;
      fields.tx_from = pick([...WALLETS.slice(0, newest + 1), null]);
      if (stage === 'confirmed' || stage === 'reverted') {
        fields.gas_used = pick([21_000n, 50_000n, 2n ** 48n]);
        fields.effective_gas_price = pick([1_000_000_000n, 3_000_000_000n]);
      }
    }
    rows.push(event(type, ts, fields));
  }
  // Stages far apart: requested, then a receipt 30 hours later (the list sees the receipt only within a
  // day of its range), and a failure 50 hours before a later request of the same id.
  for (const [n, from] of [
    [0, DAY0 + 20 * HOUR],
    [1, DAY0 + 2 * DAY + 3 * HOUR],
  ] as const) {
    const fields = { tx_id: `long-${n}`, tx_from: WALLETS[n + 2] as string, chain_id: 1 };
    rows.push(event('tx', from, { ...fields, tx_stage: 'requested' }));
    rows.push(
      event('tx', from + 30 * HOUR, {
        ...fields,
        tx_stage: 'confirmed',
        gas_used: 30_000n,
        effective_gas_price: 7_000_000_000n,
      }),
    );
  }
  // A batch mined as two transactions, both receipts in one millisecond: the greater id's fee counts
  // (ADR 145), here the smaller one (21,000 gas against 50,000, at 2 gwei).
  const batch = { tx_id: 'batch', tx_from: WALLETS[4] as string, chain_id: 1 };
  rows.push(event('tx', DAY0 + 30 * HOUR, { ...batch, id: 'batch-1', tx_stage: 'requested' }));
  for (const [id, gas] of [
    ['batch-3', 50_000n],
    ['batch-4', 21_000n],
  ] as const)
    rows.push(
      event('tx', DAY0 + 30 * HOUR + 5_000, {
        ...batch,
        id,
        tx_stage: 'confirmed',
        gas_used: gas,
        effective_gas_price: 2_000_000_000n,
      }),
    );
  rows.push(
    event('tx', DAY0 + 9 * HOUR, { tx_id: 'late', tx_stage: 'failed', tx_from: WALLETS[1] as string }),
  );
  rows.push(
    event('tx', DAY0 + 59 * HOUR, {
      tx_id: 'late',
      tx_stage: 'requested',
      wallet_address: WALLETS[5] as string,
    }),
  );
  // Earlier visits of some wallets (ADR 114): 40 days before (the lifecycle window's first 28 days, in
  // the block of 64 days before the fixture's, 2026-03-01 being the 33rd day of its block) and 60 days
  // before (out of the window: those wallets are Resurrected), and 34 days before, the last day of that
  // block (its 64th bit), for two wallets: a count read wrong there changes the Power threshold.
  for (const [n, daysBefore] of [
    [2, 40],
    [3, 60],
    [4, 40],
    [4, 60],
    [6, 39],
    [7, 34],
    [8, 34],
  ] as const) {
    // Two events at the same time, the first without a source, the second without a campaign: the
    // wallet's first touch is the first's (the least id), its source NULL (ADR 114).
    for (const [index, utm] of [
      { utm_source: null, utm_campaign: `early-${n}` },
      { utm_source: 'early', utm_campaign: null },
    ].entries())
      rows.push(
        event('page_view', DAY0 - daysBefore * DAY + n * HOUR, {
          id: `early-${n}-${daysBefore}-${index}`,
          user_id: `u${n % 5}`,
          session_id: `early-${n}-${daysBefore}`,
          wallet_address: WALLETS[n] as string,
          country: 'US',
          ...utm,
        }),
      );
  }
  return rows;
}

/** Ranges at midnight UTC, cut mid-day at either end or both, inside one day. */
const RANGES = {
  'five days': { from: DAY0, to: DAY0 + 5 * DAY },
  'days 2 to 4': { from: DAY0 + DAY, to: DAY0 + 4 * DAY },
  'cut mid-day at both ends': { from: DAY0 + DAY + 13 * HOUR + 41 * MINUTE, to: DAY0 + 3 * DAY + 9 * HOUR },
  'from midnight, to mid-day': { from: DAY0 + 2 * DAY, to: DAY0 + 3 * DAY + 7 * HOUR + 250 },
  'inside one day': { from: DAY0 + 2 * DAY + 8 * HOUR + 55 * MINUTE, to: DAY0 + 2 * DAY + 19 * HOUR },
};

/** The list's own filters and the Analytics filters, each answered in two sorts. */
const FILTERS: Record<string, Record<string, unknown>> = {
  none: {},
  'chain 1': { chainId: 1 },
  'chain 137': { chainId: 137 },
  'country US': { country: 'US' },
  'chain 1 and country DE': { chainId: 1, country: 'DE' },
  'search by prefix': { search: WALLETS[4]?.slice(0, 39) },
  'stage Active': { stage: 'ACTIVE' },
  'countries [DE]': { filters: { countries: ['DE'] } },
  'chains [137] and country US': { country: 'US', filters: { chains: [137] } },
  'source ads': { source: 'ads' },
  'campaign early-4': { campaign: 'early-4' },
};

const SORTS = ['last_seen', 'first_seen', 'transactions', 'failed', 'gas_paid'];

/** The ranges every sort and filter is asked of (the others: two sorts and a chain). */
const FULL_RANGES = new Set(['five days', 'cut mid-day at both ends']);

/**
 * Every sort of the unfiltered list and each filter in one sort (alternately) for two ranges, and two
 * sorts and a chain for the others, in UTC; one range in Berlin time; a second page after a cursor.
 * `sortsOnly`: every sort of the two full ranges in UTC, what the answers after a delete are compared on
 * (the tables themselves are compared with a rebuild after each delete).
 */
async function listAnswers(store: EventStore, projectId: string, { sortsOnly = false } = {}) {
  const iso = (ms: number) => new Date(ms).toISOString();
  const answers: Record<string, unknown> = {};
  for (const zone of ['UTC', 'Europe/Berlin']) {
    const service = createWalletService({
      projects: { getProjectFor: async () => ({ timeZone: zone }) as never },
      store,
    });
    for (const [name, range] of Object.entries(RANGES)) {
      if (zone !== 'UTC' && name !== 'cut mid-day at both ends') continue;
      const full = FULL_RANGES.has(name);
      if (sortsOnly && (zone !== 'UTC' || !full)) continue;
      const base = { from: iso(range.from), to: iso(range.to), first: 200 };
      for (const sort of full ? SORTS : ['last_seen', 'gas_paid'])
        answers[`${zone}, ${name}, ${sort}`] = await service.list('u', projectId, { ...base, sort });
      if (sortsOnly) continue;
      const filters = Object.entries(FILTERS).filter(([filter]) => full || filter === 'chain 137');
      for (const [index, [filter, input]] of filters.entries()) {
        const sort = index % 2 === 0 ? 'gas_paid' : 'last_seen';
        answers[`${zone}, ${name}, ${filter}, ${sort}`] = await service.list('u', projectId, {
          ...base,
          ...input,
          sort,
        });
      }
      // A page of three after a cursor, in a sort that reads the transactions of the page alone.
      const first = await service.list('u', projectId, { ...base, first: 3 });
      answers[`${zone}, ${name}, second page`] = first.nextCursor
        ? await service.list('u', projectId, { ...base, first: 3, after: first.nextCursor })
        : null;
    }
  }
  return answers;
}

const Folded = z.object({ rows: z.array(z.string()) });

/** Both tables folded per key, and the same rows rebuilt from the stored events, as sorted text. */
async function heldAndRebuilt(clickhouse: ClickHouse) {
  const fold = (select: string, source: string, key: string) =>
    clickhouse
      .rows(
        `SELECT arraySort(groupArray(toString(row))) AS rows
           FROM (SELECT tuple(${key}, ${select}) AS row FROM (${source}) GROUP BY ${key})`,
        {},
        Folded,
      )
      .then(([row]) => row?.rows ?? []);
  const days = (source: string) =>
    fold('max(last_seen), maxMap(chain_lasts), maxMap(country_lasts)', source, 'project_id, day, wallet');
  const transactions = (source: string) =>
    fold(
      `min(first_stage_at), min(sender), max(latest_stage_key), toString(arraySort(groupUniqArrayArray(receipts)))`,
      source,
      'project_id, day, tx_id',
    );
  const touches = (source: string) => fold('min(first_touch)', source, 'project_id, wallet');
  // The senders' transaction-days (ADR 125): keys alone.
  const sent = (source: string) => fold('count() > 0', source, 'project_id, wallet, day, tx_id');
  // The day bits (ADR 114) held, and as the events' UTC days give them.
  const bits = (source: string) => fold('groupBitOr(days)', source, 'project_id, block, wallet');
  const eventDay = "toUInt16(toDate(ts, 'UTC'))";
  return {
    bits: await bits('SELECT * FROM wallet_day_bits'),
    bitsRebuilt: await bits(
      `SELECT project_id, intDiv(${eventDay}, 64) AS block, assumeNotNull(wallet_address) AS wallet,
              bitShiftLeft(toUInt64(1), ${eventDay} % 64) AS days
         FROM events WHERE wallet_address IS NOT NULL`,
    ),
    touches: await touches('SELECT * FROM wallet_touches'),
    touchesRebuilt: await touches(walletTouchesOfEvents()),
    days: await days('SELECT * FROM wallet_list_days'),
    daysRebuilt: await days(walletListDaysOfEvents()),
    transactions: await transactions('SELECT * FROM wallet_list_transactions'),
    transactionsRebuilt: await transactions(walletListTransactionsOfEvents()),
    sent: await sent('SELECT * FROM wallet_sent_transactions'),
    sentRebuilt: await sent(walletSentTransactionsOfEvents()),
  };
}

async function expectInLine(clickhouse: ClickHouse) {
  const held = await heldAndRebuilt(clickhouse);
  expect(held.days).toEqual(held.daysRebuilt);
  expect(held.bits).toEqual(held.bitsRebuilt);
  expect(held.touches).toEqual(held.touchesRebuilt);
  expect(held.transactions).toEqual(held.transactionsRebuilt);
  expect(held.sent).toEqual(held.sentRebuilt);
  return held;
}

/** A `wallet_sent_transactions` row (as text) of that project and wallet. */
const isSentBy = (row: string, projectId: string, address: string) =>
  row.startsWith(`('${projectId}','${address}',`);

const SLOW = 600_000;

const suite = useChdbSuite('polyflow-ch-wallet-list-', SLOW);

describe('ClickHouse tables of the Wallets list (ADR 110)', { timeout: SLOW }, () => {
  it('hold what the events hold and answer the list as DuckDB, through scattered loads and every kind of delete', async () => {
    const rows = [...fixture(PROJECT, 7), ...fixture(OTHER, 11)];
    const clickhouse = await templatedClickHouseStore(`${suite.url}/pf_wallet_list`);
    const duckdb = await createDuckDbEventStore({ file: path.join(suite.dir, 'events.duckdb') });
    try {
      await Promise.all([
        loadScattered(clickhouse, suite.dir, rows),
        duckdb.loadSegment(writeSegment(suite.dir, rows)),
      ]);
      const held = await expectInLine(clickhouse.clickhouse);
      // Wallet-days and transaction-days of both projects, several chains and countries, fees.
      expect(held.days.length).toBeGreaterThan(40);
      expect(held.days.some((row) => row.includes('[1,137]') && row.includes("['DE','US']"))).toBe(true);
      expect(held.transactions.length).toBeGreaterThan(40);
      // Transaction-days listed under more than one sender (a stage sent from another wallet).
      const sentKeys = held.sent.map((row) => row.split(',').slice(2, 4).join());
      expect(new Set(sentKeys).size).toBeLessThan(sentKeys.length);
      // First touches from the first of two events of the same time (no source: NULL, not the second's).
      expect(held.touches.some((row) => row.includes("'early-4-60-0',1,'',0,'early-4'"))).toBe(true);
      // Day bits in two blocks of 64 days.
      expect(new Set(held.bits.map((row) => row.split(',')[1])).size).toBe(2);
      const [fromClickHouse, answers] = await askBoth(clickhouse, duckdb, (engine: EventStore) =>
        listAnswers(engine, PROJECT),
      );
      // The fixture reaches what the comparison checks: transactions, failures and gas in the list, a
      // filter that narrows it, and ranges whose partial days change the answers.
      type Page = { rows: { transactions: number; failed: number; gasPaidWei: string; address: string }[] };
      const all = answers['UTC, five days, gas_paid'] as Page;
      expect(all.rows.length).toBeGreaterThan(10);
      expect(all.rows.filter((row) => row.failed > 0).length).toBeGreaterThan(2);
      expect(BigInt(all.rows[0]?.gasPaidWei ?? '0')).toBeGreaterThan(0n);
      const chain = answers['UTC, five days, chain 1 and country DE, gas_paid'] as Page;
      expect(chain.rows.length).toBeGreaterThan(0);
      expect(chain.rows.length).toBeLessThan(all.rows.length);
      expect(answers['UTC, cut mid-day at both ends, gas_paid']).not.toEqual(
        answers['UTC, days 2 to 4, gas_paid'],
      );
      expect(fromClickHouse).toEqual(answers);

      expect(held.sent.some((row) => isSentBy(row, PROJECT, WALLETS[3] as string))).toBe(true);
      const cut = RANGES['cut mid-day at both ends'];
      const deletes: [string, (store: EventStore) => Promise<number>][] = [
        ['a wallet', (store) => store.deleteWalletEvents(PROJECT, WALLETS[3] as string)],
        ['events before a time mid-day', (store) => store.deleteEventsBefore(PROJECT, new Date(cut.from))],
        ['a user', (store) => store.deleteUserEvents(PROJECT, 'u2')],
      ];
      for (const [what, remove] of deletes) {
        const [removedByClickHouse, removed] = await askBoth(clickhouse, duckdb, remove);
        expect(removed, what).toBeGreaterThan(0);
        expect(removedByClickHouse, what).toBe(removed);
        const after = await expectInLine(clickhouse.clickhouse);
        // A forgotten wallet leaves no transaction listed under it (ADR 125).
        if (what === 'a wallet')
          expect(after.sent.some((row) => isSentBy(row, PROJECT, WALLETS[3] as string))).toBe(false);
        const [clickhouseAnswers, duckdbAnswers] = await askBoth(clickhouse, duckdb, (engine: EventStore) =>
          listAnswers(engine, PROJECT, { sortsOnly: true }),
        );
        expect(clickhouseAnswers, what).toEqual(duckdbAnswers);
      }
      await clickhouse.deleteProjectEvents(PROJECT);
      const left = await expectInLine(clickhouse.clickhouse);
      expect(left.days.length).toBeGreaterThan(0);
      expect([...left.days, ...left.transactions, ...left.sent].every((row) => row.includes(OTHER))).toBe(
        true,
      );
    } finally {
      await clickhouse.close();
      await duckdb.close();
    }
  });

  it('are created and filled when the store starts on a database of schema version 24', async () => {
    const url = `${suite.url}/pf_wallet_list_v24`;
    const rows = fixture(PROJECT, 7);
    const tables = await databaseAtVersion(url, 24, (writer) => loadScattered(writer, suite.dir, rows));
    expect(tables).not.toContain('wallet_list_days');
    expect(tables).not.toContain('wallet_list_transactions');

    const store: ClickHouseEventStore = await createClickHouseEventStore(url);
    const duckdb = await createDuckDbEventStore({ file: path.join(suite.dir, 'v24.duckdb') });
    try {
      await duckdb.loadSegment(writeSegment(suite.dir, rows));
      const held = await expectInLine(store.clickhouse);
      expect(held.days.length).toBeGreaterThan(20);
      // Loads after the upgrade reach them through their views.
      const later = eventBuilder(PROJECT)('tx', DAY0 + 4 * DAY, {
        id: 'late',
        tx_id: 'tx-late',
        tx_stage: 'requested',
        wallet_address: wallet(99),
      });
      await Promise.all([
        store.loadSegment(writeSegment(suite.dir, [later])),
        duckdb.loadSegment(writeSegment(suite.dir, [later])),
      ]);
      const after = await expectInLine(store.clickhouse);
      expect(after.days).toHaveLength(held.days.length + 1);
      expect(after.transactions).toHaveLength(held.transactions.length + 1);
      const [clickhouseAnswers, duckdbAnswers] = await askBoth(store, duckdb, (engine: EventStore) =>
        listAnswers(engine, PROJECT, { sortsOnly: true }),
      );
      expect(clickhouseAnswers).toEqual(duckdbAnswers);
    } finally {
      await store.close();
      await duckdb.close();
    }
  });
});
