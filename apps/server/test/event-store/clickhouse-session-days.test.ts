import path from 'node:path';
import type { AcquisitionFilters, AttributionDimension } from '@polyflow/contracts/acquisition';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { ClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import { sessionDaysOfEvents } from '../../src/modules/event-store/clickhouse/session-days.ts';
import { createDuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import type { TimeRange } from '../../src/reading/time-range.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { askBoth } from './both-engines.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { databaseAtVersion } from './clickhouse-older-database.ts';
import { eventBuilder, sequence } from './event-builder.ts';
import { loadScattered, writeSegment } from './segment-file.ts';

/**
 * `session_days` (ADR 030): the acquisition questions read a range's whole UTC days from it and the
 * partial days at its ends from `events`. Whatever the loads (sessions spread over several loads, out of
 * order, each event loaded twice) and the deletes (a wallet, old events cut mid-day, a user, a project),
 * the funnel, attribution and filter options answer exactly as DuckDB's, for ranges at midnight, cut
 * mid-day and mid-session, and within one day; and the table holds what a rebuild from the stored events
 * holds.
 */

const PROJECT = 'p-ch-sessions';
const OTHER = 'p-ch-sessions-other';
const HOUR = 3_600_000;
const DAY = 86_400_000;
const MINUTE = 60_000;
const DAY0 = Date.UTC(2026, 2, 1);
const WALLETS = ['0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000a2'];

/**
 * Sessions of four users over three days, some across midnight UTC, each with a landing UTM (blank
 * or absent for some) repeated on its events, varied countries, browsers and wallet providers, wallet
 * detections and connections, transaction stages (submitted or not) and signatures.
 */
function fixture(projectId: string, seed: number): EventRow[] {
  const event = eventBuilder(projectId);
  const pick = sequence(seed);
  const rows: EventRow[] = [];
  for (let index = 0; index < 24; index += 1) {
    const user = `u${index % 4}`;
    const session = `s${index}`;
    const start = DAY0 + 13 * HOUR + index * 2 * HOUR + pick([0, 35, 50, 58]) * MINUTE;
    const source = pick(['google', 'twitter', '  ', null]);
    const campaign = pick(['spring', 'launch', null]);
    for (let step = 0; step < 9; step += 1) {
      const ts = start + step * pick([3, 7, 11]) * MINUTE + pick([0, 500]);
      const type = pick(['page_view', 'wallet_detected', 'wallet_connected', 'tx', 'tx', 'signature']);
      const fields: Partial<EventRow> = {
        user_id: user,
        session_id: session,
        utm_source: source,
        utm_campaign: campaign,
        utm_medium: pick(['cpc', null]),
        country: pick(['DE', 'FR', null, ' ']),
        browser: pick(['Chrome', 'Firefox']),
      };
      if (type === 'wallet_detected') fields.wallet_provider = pick(['MetaMask', 'Rabby Wallet']);
      if (type === 'wallet_connected') {
        fields.wallet_provider = 'MetaMask';
        fields.wallet_address = pick(WALLETS);
      }
      if (type === 'tx') {
        fields.tx_id = `tx-${session}-${pick(['a', 'b', 'c'])}`;
        fields.tx_stage = pick(['requested', 'submitted', 'confirmed', 'reverted']);
        fields.tx_kind = 'contract';
        fields.tx_from = pick([...WALLETS, null]);
      }
      if (type === 'signature') fields.sig_stage = pick(['signed', 'rejected', null]);
      rows.push(event(type, ts, fields));
    }
  }
  return rows;
}

/** Ranges at midnight UTC, cut mid-day at either end or both, inside one day, and one ending at midnight. */
const RANGES: Record<string, TimeRange> = {
  'three days': { fromMs: DAY0, toMs: DAY0 + 3 * DAY },
  'cut mid-day at both ends': {
    fromMs: DAY0 + 23 * HOUR + 41 * MINUTE,
    toMs: DAY0 + 2 * DAY + 23 * MINUTE,
  },
  'from midnight, to mid-day': { fromMs: DAY0 + DAY, toMs: DAY0 + 2 * DAY + 7 * HOUR + 250 },
  'inside one day': { fromMs: DAY0 + DAY + 8 * HOUR + 55 * MINUTE, toMs: DAY0 + DAY + 19 * HOUR },
  'no whole day, to midnight': { fromMs: DAY0 + 23 * HOUR + 10 * MINUTE, toMs: DAY0 + DAY },
};

const FILTERS: AcquisitionFilters[] = [
  {},
  { countries: ['DE'] },
  { sources: ['google'], browsers: ['Firefox'] },
  { walletProviders: ['Rabby Wallet', 'MetaMask'], campaigns: ['launch'] },
];

const DIMENSIONS: AttributionDimension[] = ['campaign', 'source', 'medium'];

/** Every acquisition answer of a project over RANGES, rows sorted (the port does not order attribution). */
async function acquisitionAnswers(store: EventStore, projectId: string) {
  const answers: Record<string, unknown> = {};
  for (const [name, range] of Object.entries(RANGES)) {
    answers[`${name}: options`] = await store.filterOptions(projectId, range);
    for (const [index, filters] of FILTERS.entries()) {
      answers[`${name}: funnel ${index}`] = await store.funnelCounts(projectId, range, filters);
      for (const dimension of DIMENSIONS) {
        const rows = await store.attributionCounts(projectId, range, dimension, filters);
        answers[`${name}: ${dimension} ${index}`] = rows.map((row) => JSON.stringify(row)).sort();
      }
    }
  }
  return answers;
}

const Folded = z.object({ rows: z.array(z.string()) });

/** `session_days` folded per key, and the same rows rebuilt from the stored events, as sorted text. */
async function heldAndRebuilt(clickhouse: ClickHouse) {
  const folded = (source: string) =>
    clickhouse
      .rows(
        `SELECT arraySort(groupArray(toString(tuple(project_id, day, session_id, user_id, has_wallet,
                  has_connected, has_signed, arraySort(submitted_txs), arraySort(connect_ids),
                  landing_campaign, landing_source, arraySort(countries), arraySort(utm_sources),
                  arraySort(wallet_providers))))) AS rows
           FROM (${source})`,
        {},
        Folded,
      )
      .then(([row]) => row?.rows ?? []);
  return {
    held: await folded('SELECT * FROM session_days FINAL'),
    rebuilt: await folded(sessionDaysOfEvents()),
  };
}

async function expectInLine(clickhouse: ClickHouse) {
  const { held, rebuilt } = await heldAndRebuilt(clickhouse);
  expect(held).toEqual(rebuilt);
  return held;
}

const SLOW = 300_000;

const suite = useChdbSuite('polyflow-ch-sessions-', SLOW);

describe('ClickHouse session days (ADR 030)', { timeout: SLOW }, () => {
  it('answer the acquisition questions as DuckDB does, through scattered loads and every kind of delete', async () => {
    const rows = [...fixture(PROJECT, 7), ...fixture(OTHER, 11)];
    const clickhouse = await templatedClickHouseStore(`${suite.url}/pf_sessions`);
    const duckdb = await createDuckDbEventStore({ file: path.join(suite.dir, 'events.duckdb') });
    try {
      await Promise.all([
        loadScattered(clickhouse, suite.dir, rows),
        duckdb.loadSegment(writeSegment(suite.dir, rows)),
      ]);
      const held = await expectInLine(clickhouse.clickhouse);
      // Some sessions cross midnight: more rows than sessions.
      expect(held.length).toBeGreaterThan(48);
      const [fromClickHouse, answers] = await askBoth(clickhouse, duckdb, (engine: EventStore) =>
        acquisitionAnswers(engine, PROJECT),
      );
      // The fixture reaches every figure the comparison checks (not a comparison of empty answers).

      expect(answers['three days: funnel 0']).toMatchObject({ haveConnectedWallet: 4, signedData: 4 });
      expect(answers['cut mid-day at both ends: funnel 1']).not.toEqual(answers['three days: funnel 1']);
      expect(fromClickHouse).toEqual(answers);

      const deletes: [string, (store: EventStore) => Promise<number>][] = [
        ['a wallet', (store) => store.deleteWalletEvents(PROJECT, WALLETS[0] as string)],
        [
          'events before a time mid-day',
          (store) =>
            store.deleteEventsBefore(PROJECT, new Date(RANGES['cut mid-day at both ends']?.fromMs ?? 0)),
        ],
        ['a user', (store) => store.deleteUserEvents(PROJECT, 'u1')],
      ];
      for (const [what, remove] of deletes) {
        const [removedByClickHouse, removed] = await askBoth(clickhouse, duckdb, remove);
        expect(removed, what).toBeGreaterThan(0);
        expect(removedByClickHouse, what).toBe(removed);
        await expectInLine(clickhouse.clickhouse);
        const [clickhouseAnswers, duckdbAnswers] = await askBoth(clickhouse, duckdb, (engine: EventStore) =>
          acquisitionAnswers(engine, PROJECT),
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

  it('count a session once however its rows fall: across midnight, unmerged, its id shared by two users (ADR 043)', async () => {
    const project = 'p-ch-folded';
    const event = eventBuilder(project);
    const midnight = DAY0 + DAY;
    const late = midnight - 10 * MINUTE;
    const early = midnight + 10 * MINUTE;
    const rows: EventRow[] = [
      // s-night (u1) across midnight: DE and no landing before it, google and "spring" after; one
      // transaction submitted before and confirmed after; a wallet's first connection after.
      event('page_view', late, { user_id: 'u1', session_id: 's-night', country: 'DE' }),
      event('tx', late + MINUTE, {
        user_id: 'u1',
        session_id: 's-night',
        tx_id: 'tx-night',
        tx_stage: 'submitted',
        tx_kind: 'contract',
      }),
      event('tx', early, {
        user_id: 'u1',
        session_id: 's-night',
        utm_source: 'google',
        utm_campaign: 'spring',
        tx_id: 'tx-night',
        tx_stage: 'confirmed',
        tx_kind: 'contract',
      }),
      event('wallet_connected', early + MINUTE, {
        user_id: 'u1',
        session_id: 's-night',
        utm_source: 'google',
        utm_campaign: 'spring',
        wallet_provider: 'MetaMask',
        wallet_address: WALLETS[0],
      }),
      // The same session id for u2, within one day, with a campaign of its own.
      event('page_view', early + HOUR, { user_id: 'u2', session_id: 's-night', utm_campaign: 'launch' }),
      // s-day (u2): one day, and a wallet connected earlier than the ranges below (not new).
      event('wallet_connected', DAY0 + 2 * HOUR, {
        user_id: 'u2',
        session_id: 's-early',
        wallet_address: WALLETS[1],
      }),
      event('wallet_connected', early + 2 * HOUR, {
        user_id: 'u2',
        session_id: 's-day',
        utm_campaign: 'launch',
        country: 'DE',
        utm_source: 'google',
        wallet_address: WALLETS[1],
      }),
    ];
    const clickhouse = await templatedClickHouseStore(`${suite.url}/pf_sessions_folded`);
    const duckdb = await createDuckDbEventStore({ file: path.join(suite.dir, 'folded.duckdb') });
    try {
      // Each event loaded twice, in pieces: a day's rows of one session in several unmerged rows.
      await loadScattered(clickhouse, suite.dir, rows);
      await duckdb.loadSegment(writeSegment(suite.dir, rows));
      const range = { fromMs: DAY0 + 12 * HOUR, toMs: DAY0 + 2 * DAY };
      const answers = async (store: EventStore) => ({
        all: (await store.attributionCounts(project, range, 'campaign', {}))
          .map((row) => JSON.stringify(row))
          .sort(),
        // Passes only as a whole: DE before midnight, google after.
        folded: (
          await store.attributionCounts(project, range, 'source', { countries: ['DE'], sources: ['google'] })
        )
          .map((row) => JSON.stringify(row))
          .sort(),
        funnel: await store.funnelCounts(project, range, { countries: ['DE'], sources: ['google'] }),
      });
      const expected = await answers(duckdb);
      expect(await answers(clickhouse)).toEqual(expected);
      // What the definitions give: three (session, user) keys in the range; s-night of u1 once, landing
      // "spring", its transaction once, the new wallet in it (also in u2's s-night: the same session id).
      const total = (await clickhouse.attributionCounts(project, range, 'campaign', {})).find(
        (row) => row.isTotal,
      );
      expect(total).toMatchObject({ sessions: 3, users: 2, transactions: 1, connects: 2, newWallets: 2 });
      const spring = (await clickhouse.attributionCounts(project, range, 'campaign', {})).find(
        (row) => row.value === 'spring',
      );
      expect(spring).toMatchObject({ sessions: 1, users: 1, transactions: 1, connects: 1, newWallets: 1 });
      const folded = await clickhouse.attributionCounts(project, range, 'source', {
        countries: ['DE'],
        sources: ['google'],
      });
      expect(folded.find((row) => row.isTotal)).toMatchObject({ sessions: 2, users: 2, transactions: 1 });
      expect(
        await clickhouse.funnelCounts(project, range, { countries: ['DE'], sources: ['google'] }),
      ).toMatchObject({ totalUsers: 2, haveExecutedTransaction: 1, haveConnectedWallet: 2 });
    } finally {
      await clickhouse.close();
      await duckdb.close();
    }
  });

  it('is created and filled when the store starts on a database of schema version 3', async () => {
    const url = `${suite.url}/pf_sessions_v3`;
    const tables = await databaseAtVersion(url, 3, (writer) =>
      loadScattered(writer, suite.dir, fixture(PROJECT, 7)),
    );
    expect(tables).not.toContain('session_days');

    const store: ClickHouseEventStore = await createClickHouseEventStore(url);
    try {
      const held = await expectInLine(store.clickhouse);
      expect(held.length).toBeGreaterThan(24);
      // Loads after the upgrade go through the view.
      const later = eventBuilder(PROJECT)('page_view', DAY0 + 3 * 86_400_000, {
        id: 'late',
        user_id: 'u9',
        session_id: 's99',
      });
      await store.loadSegment(writeSegment(suite.dir, [later]));
      expect(await expectInLine(store.clickhouse)).toHaveLength(held.length + 1);
    } finally {
      await store.close();
    }
  });
});
