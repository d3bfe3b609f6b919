import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { ClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import { transactionDaysOfEvents } from '../../src/modules/event-store/clickhouse/transaction-days.ts';
import { walletDaysOfEvents } from '../../src/modules/event-store/clickhouse/wallet-days.ts';
import { createDuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import { bucketRange, type TimeRange } from '../../src/reading/time-range.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { askBoth } from './both-engines.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { databaseAtVersion } from './clickhouse-older-database.ts';
import { eventBuilder, sequence } from './event-builder.ts';
import { loadScattered, writeSegment } from './segment-file.ts';

/**
 * `wallet_days` (ADR 031): the overview's active wallet-days, connected and new wallets, and their
 * charts, read a range's whole UTC days from it and the partial days at its ends from `events`. Whatever
 * the loads (a wallet's day spread over several loads, out of order, each event loaded twice) and the
 * deletes (a wallet, old events cut mid-day, a user, a project), they answer exactly as DuckDB's for
 * ranges at midnight, cut mid-day, and within one day; and the table holds what a rebuild from the
 * stored events holds. `user_lives` (ADR 032, each user's first and last day) and `transaction_days`
 * (ADR 033, the transaction outcomes: whole days from it, partial days from `events`) are held to their
 * rebuilds through the same loads and deletes, and the outcomes to DuckDB's answers.
 */

const PROJECT = 'p-ch-wallets';
const OTHER = 'p-ch-wallets-other';
const HOUR = 3_600_000;
const DAY = 86_400_000;
const MINUTE = 60_000;
const DAY0 = Date.UTC(2026, 2, 1);
const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const WALLETS = Array.from({ length: 16 }, (_, index) => wallet(index + 1));

/**
 * Five users over five days, an event every 45 minutes or so (around midnight and on both sides of the
 * ranges' cuts): the events carry one of the three newest wallets of a pool that grows by one every
 * nine hours (or none), so wallets appear, are seen before they connect, connect several times a day,
 * and fade; transactions sent from another wallet than the event's own.
 */
function fixture(projectId: string, seed: number): EventRow[] {
  const event = eventBuilder(projectId);
  const pick = sequence(seed);
  const rows: EventRow[] = [];
  for (let index = 0; index < 160; index += 1) {
    const user = `u${index % 5}`;
    const ts = DAY0 + index * 45 * MINUTE + pick([0, 7, 19, 33]) * MINUTE + pick([0, 500]);
    const type = pick(['page_view', 'page_view', 'wallet_connected', 'wallet_connected', 'tx', 'error']);
    const newest = Math.floor(index / 12);
    const carried = pick([...WALLETS.slice(Math.max(0, newest - 2), newest + 1), null]);
    const fields: Partial<EventRow> = { user_id: user, session_id: `${user}-${Math.floor(ts / DAY)}` };
    if (type !== 'page_view' || pick([true, false])) fields.wallet_address = carried;
    if (type === 'wallet_connected') fields.wallet_address = carried ?? (WALLETS[newest] as string);
    if (type === 'tx') {
      // A transaction's stages over a few events in a row (some across midnight), in any order of stages.
      fields.tx_id = `tx-${Math.floor(index / 2)}`;
      fields.tx_stage = pick(['requested', 'submitted', 'confirmed', 'reverted', 'failed', 'dropped']);
      fields.tx_from = pick(WALLETS.slice(0, newest + 1));
    }
    rows.push(event(type, ts, fields));
  }
  return rows;
}

/** Ranges at midnight UTC, cut mid-day at either end or both, inside one day, and one ending at midnight. */
const RANGES: Record<string, TimeRange> = {
  'five days': { fromMs: DAY0, toMs: DAY0 + 5 * DAY },
  'days 2 to 4': { fromMs: DAY0 + DAY, toMs: DAY0 + 4 * DAY },
  'cut mid-day at both ends': {
    fromMs: DAY0 + DAY + 13 * HOUR + 41 * MINUTE,
    toMs: DAY0 + 3 * DAY + 9 * HOUR,
  },
  'from midnight, to mid-day': { fromMs: DAY0 + 2 * DAY, toMs: DAY0 + 3 * DAY + 7 * HOUR + 250 },
  'inside one day': { fromMs: DAY0 + 2 * DAY + 8 * HOUR + 55 * MINUTE, toMs: DAY0 + 2 * DAY + 19 * HOUR },
  'no whole day, to midnight': { fromMs: DAY0 + 3 * DAY + 11 * HOUR + 10 * MINUTE, toMs: DAY0 + 4 * DAY },
};

/** What the overview and its charts ask of the wallets, the active days and the transactions, for every range. */
async function walletAnswers(store: EventStore, projectId: string) {
  const answers: Record<string, unknown> = {};
  for (const [name, range] of Object.entries(RANGES)) {
    const hourly = bucketRange(range, '6h');
    answers[`${name}: tiles`] = await store.walletCounts(projectId, range);
    answers[`${name}: active days`] = await store.activeDays(projectId, range);
    answers[`${name}: active days against the first day`] = await store.activeDays(projectId, range, {
      fromMs: DAY0,
      toMs: DAY0 + DAY,
    });
    answers[`${name}: connected`] = [...(await store.connectedWallets(projectId, hourly))].sort();
    answers[`${name}: new`] = [...(await store.newWallets(projectId, hourly))].sort();
    // "+ Wallets": connected in the range and never before it (ADR 046), on the Total row and per value.
    answers[`${name}: attribution`] = (await store.attributionCounts(projectId, range, 'campaign', {})).sort(
      (a, b) => Number(b.isTotal) - Number(a.isTotal) || String(a.value).localeCompare(String(b.value)),
    );
    answers[`${name}: transactions`] = [...(await store.transactionOutcomes(projectId, hourly))].sort();
    answers[`${name}: transaction tiles`] = [
      ...(await store.transactionOutcomes(projectId, bucketRange(range))),
    ];
  }
  return answers;
}

const Folded = z.object({ rows: z.array(z.string()) });

/**
 * `wallet_days` and `user_lives` folded per key, and the same rows rebuilt from the stored events, as
 * sorted text.
 */
async function heldAndRebuilt(clickhouse: ClickHouse) {
  const folded = (source: string) =>
    clickhouse
      .rows(
        `SELECT arraySort(groupArray(toString(tuple(project_id, day, wallet, first_seen, first_connected)))) AS rows
           FROM (${source})`,
        {},
        Folded,
      )
      .then(([row]) => row?.rows ?? []);
  const lives = (source: string) =>
    clickhouse
      .rows(
        `SELECT arraySort(groupArray(toString(tuple(project_id, user_id, first_day, last_day)))) AS rows
           FROM (${source})`,
        {},
        Folded,
      )
      .then(([row]) => row?.rows ?? []);
  const transactions = (source: string) =>
    clickhouse
      .rows(
        `SELECT arraySort(groupArray(toString(tuple(project_id, day, tx_id, first, submitted, latest)))) AS rows
           FROM (SELECT project_id, day, tx_id, min(first_stage_at) AS first, max(has_submitted) AS submitted,
                        max(latest_stage_key) AS latest
                   FROM (${source})
                  GROUP BY project_id, day, tx_id)`,
        {},
        Folded,
      )
      .then(([row]) => row?.rows ?? []);
  const firsts = (source: string) =>
    clickhouse
      .rows(
        `SELECT arraySort(groupArray(toString(tuple(project_id, wallet, seen, connected)))) AS rows
           FROM (SELECT project_id, wallet, min(first_seen) AS seen, min(first_connected) AS connected
                   FROM (${source})
                  GROUP BY project_id, wallet)`,
        {},
        Folded,
      )
      .then(([row]) => row?.rows ?? []);
  return {
    firsts: await firsts('SELECT * FROM wallet_firsts'),
    firstsRebuilt: await firsts(
      `SELECT project_id, assumeNotNull(wallet_address) AS wallet, ts AS first_seen,
              if(type = 'wallet_connected', ts, NULL) AS first_connected
         FROM events WHERE wallet_address IS NOT NULL`,
    ),
    transactions: await transactions('SELECT * FROM transaction_days'),
    transactionsRebuilt: await transactions(transactionDaysOfEvents()),
    held: await folded('SELECT * FROM wallet_days FINAL'),
    rebuilt: await folded(walletDaysOfEvents()),
    lives: await lives('SELECT * FROM user_lives FINAL'),
    livesRebuilt: await lives(
      `SELECT project_id, user_id, min(toDate(ts, 'UTC')) AS first_day, max(toDate(ts, 'UTC')) AS last_day
         FROM events GROUP BY project_id, user_id`,
    ),
  };
}

async function expectInLine(clickhouse: ClickHouse) {
  const { held, rebuilt, lives, livesRebuilt, transactions, transactionsRebuilt, firsts, firstsRebuilt } =
    await heldAndRebuilt(clickhouse);
  expect(held).toEqual(rebuilt);
  expect(firsts).toEqual(firstsRebuilt);
  expect(lives).toEqual(livesRebuilt);
  expect(transactions).toEqual(transactionsRebuilt);
  return held;
}

const SLOW = 300_000;

const suite = useChdbSuite('polyflow-ch-wallets-', SLOW);

describe('ClickHouse wallet days, user lives and transaction days (ADR 031–033)', { timeout: SLOW }, () => {
  it('answer the wallet questions as DuckDB does, through scattered loads and every kind of delete', async () => {
    const rows = [...fixture(PROJECT, 7), ...fixture(OTHER, 11)];
    const clickhouse = await templatedClickHouseStore(`${suite.url}/pf_wallets`);
    const duckdb = await createDuckDbEventStore({ file: path.join(suite.dir, 'events.duckdb') });
    try {
      await Promise.all([
        loadScattered(clickhouse, suite.dir, rows),
        duckdb.loadSegment(writeSegment(suite.dir, rows)),
      ]);
      const held = await expectInLine(clickhouse.clickhouse);
      // Users of both projects have lives (the deletes below check them too).
      expect((await heldAndRebuilt(clickhouse.clickhouse)).lives).toHaveLength(10);
      // Wallets on several days, in both projects, some seen before they first connect.
      expect(held.length).toBeGreaterThan(40);
      const { firsts } = await heldAndRebuilt(clickhouse.clickhouse);
      expect(firsts.length).toBeGreaterThan(20);
      expect(firsts.some((row) => row.endsWith(',NULL)'))).toBe(true);
      const [fromClickHouse, answers] = await askBoth(clickhouse, duckdb, (engine: EventStore) =>
        walletAnswers(engine, PROJECT),
      );
      // The fixture reaches every figure the comparison checks, and the partial days change them: a range
      // within one day reads nothing but events, and a range cut at both ends answers differently from its
      // whole days alone (so the questions fail this comparison if they skip the partial days' events).
      expect(answers['inside one day: tiles']).toMatchObject({ connected: expect.any(Number) });
      expect((answers['inside one day: tiles'] as { connected: number }).connected).toBeGreaterThan(0);
      expect((answers['inside one day: active days'] as { walletDays: number }).walletDays).toBeGreaterThan(
        0,
      );
      const cut = RANGES['cut mid-day at both ends'] as TimeRange;
      const wholeDaysOfCut = { fromMs: DAY0 + 2 * DAY, toMs: DAY0 + 3 * DAY };
      expect(answers['cut mid-day at both ends: tiles']).not.toEqual(
        await duckdb.walletCounts(PROJECT, wholeDaysOfCut),
      );
      expect(answers['cut mid-day at both ends: active days']).not.toEqual(
        await duckdb.activeDays(PROJECT, wholeDaysOfCut, { fromMs: DAY0, toMs: DAY0 + DAY }),
      );
      expect((answers['days 2 to 4: tiles'] as { fresh: number }).fresh).toBeGreaterThan(0);
      // Some wallets connected in the range cut at both ends connected before it too: "+ Wallets" leaves
      // them out.
      const [total] = answers['cut mid-day at both ends: attribution'] as {
        isTotal: boolean;
        newWallets: number;
      }[];
      expect(total?.isTotal).toBe(true);
      expect(total?.newWallets).toBeGreaterThan(0);
      expect(total?.newWallets).toBeLessThan(
        (answers['cut mid-day at both ends: tiles'] as { connected: number }).connected,
      );
      type Tiles = [number, { total: number; submitted: number; failed: number }][];
      const [allTiles] = answers['five days: transaction tiles'] as Tiles;
      expect(allTiles?.[1]).toMatchObject({ submitted: expect.any(Number) });
      expect(Math.min(allTiles?.[1].submitted ?? 0, allTiles?.[1].failed ?? 0)).toBeGreaterThan(0);
      const [cutTiles] = answers['cut mid-day at both ends: transaction tiles'] as Tiles;
      expect(cutTiles?.[1].total).toBeGreaterThan(0);
      expect(answers['cut mid-day at both ends: transaction tiles']).not.toEqual([
        ...(await duckdb.transactionOutcomes(PROJECT, bucketRange(wholeDaysOfCut))),
      ]);
      expect(await duckdb.walletCounts(PROJECT, cut)).toEqual(answers['cut mid-day at both ends: tiles']);
      expect(fromClickHouse).toEqual(answers);

      const deletes: [string, (store: EventStore) => Promise<number>][] = [
        ['a wallet', (store) => store.deleteWalletEvents(PROJECT, WALLETS[1] as string)],
        ['events before a time mid-day', (store) => store.deleteEventsBefore(PROJECT, new Date(cut.fromMs))],
        ['a user', (store) => store.deleteUserEvents(PROJECT, 'u3')],
      ];
      for (const [what, remove] of deletes) {
        const [removedByClickHouse, removed] = await askBoth(clickhouse, duckdb, remove);
        expect(removed, what).toBeGreaterThan(0);
        expect(removedByClickHouse, what).toBe(removed);
        await expectInLine(clickhouse.clickhouse);
        const [clickhouseAnswers, duckdbAnswers] = await askBoth(clickhouse, duckdb, (engine: EventStore) =>
          walletAnswers(engine, PROJECT),
        );
        expect(clickhouseAnswers, what).toEqual(duckdbAnswers);
      }
      await clickhouse.deleteProjectEvents(PROJECT);
      const left = await expectInLine(clickhouse.clickhouse);
      expect(left.length).toBeGreaterThan(0);
      expect(left.every((row) => row.includes(OTHER))).toBe(true);
    } finally {
      await clickhouse.close();
      await duckdb.close();
    }
  });

  it('wallet_firsts is created and filled when the store starts on a database of schema version 11', async () => {
    const url = `${suite.url}/pf_wallets_v11`;
    const tables = await databaseAtVersion(url, 11, (writer) =>
      loadScattered(writer, suite.dir, [...fixture(PROJECT, 7), ...fixture(OTHER, 11)]),
    );
    expect(tables).toContain('wallet_days');
    expect(tables).not.toContain('wallet_firsts');

    const store: ClickHouseEventStore = await createClickHouseEventStore(url);
    const duckdb = await createDuckDbEventStore({ file: path.join(suite.dir, 'v11.duckdb') });
    try {
      await duckdb.loadSegment(writeSegment(suite.dir, [...fixture(PROJECT, 7), ...fixture(OTHER, 11)]));
      await expectInLine(store.clickhouse);
      const { firsts } = await heldAndRebuilt(store.clickhouse);
      expect(firsts.length).toBeGreaterThan(20);
      const [clickhouseAnswers, duckdbAnswers] = await askBoth(store, duckdb, (engine: EventStore) =>
        walletAnswers(engine, PROJECT),
      );
      expect(clickhouseAnswers).toEqual(duckdbAnswers);
      // Loads after the upgrade reach it through `wallet_days`' view: a wallet first seen, one seen earlier.
      const event = eventBuilder(PROJECT);
      const later = [
        event('wallet_connected', DAY0 + 9 * DAY, { id: 'late', wallet_address: wallet(99) }),
        event('page_view', DAY0 - DAY, { id: 'early', wallet_address: WALLETS[4] as string }),
      ];
      await Promise.all([
        store.loadSegment(writeSegment(suite.dir, later)),
        duckdb.loadSegment(writeSegment(suite.dir, later)),
      ]);
      await expectInLine(store.clickhouse);
      expect((await heldAndRebuilt(store.clickhouse)).firsts).toHaveLength(firsts.length + 1);
      const [laterFromClickHouse, laterFromDuckDb] = await askBoth(store, duckdb, (engine: EventStore) =>
        walletAnswers(engine, PROJECT),
      );
      expect(laterFromClickHouse).toEqual(laterFromDuckDb);
    } finally {
      await store.close();
      await duckdb.close();
    }
  });

  it('are created and filled when the store starts on a database of schema version 4', async () => {
    const url = `${suite.url}/pf_wallets_v4`;
    const tables = await databaseAtVersion(url, 4, (writer) =>
      loadScattered(writer, suite.dir, fixture(PROJECT, 7)),
    );
    expect(tables).not.toContain('wallet_days');
    expect(tables).not.toContain('user_lives');
    expect(tables).not.toContain('transaction_days');

    const store: ClickHouseEventStore = await createClickHouseEventStore(url);
    try {
      const held = await expectInLine(store.clickhouse);
      expect(held.length).toBeGreaterThan(10);
      expect((await heldAndRebuilt(store.clickhouse)).lives).toHaveLength(5);
      // Loads after the upgrade go through the view.
      const later = eventBuilder(PROJECT)('wallet_connected', DAY0 + 9 * DAY, {
        id: 'late',
        wallet_address: wallet(99),
      });
      await store.loadSegment(writeSegment(suite.dir, [later]));
      expect(await expectInLine(store.clickhouse)).toHaveLength(held.length + 1);
    } finally {
      await store.close();
    }
  });
});
