import type { DuckDBConnection } from '@duckdb/node-api';
import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_FILTER_COLUMNS } from '../../src/modules/event-store/domain.ts';
import { inTransaction, rebuildDerivedTables } from '../../src/modules/event-store/duckdb/derived-tables.ts';
import {
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { eventFilter } from '../../src/modules/event-store/duckdb/event-filter.ts';
import { REBUILD_SORT_MEMORY_MB } from '../../src/modules/event-store/duckdb/rebuild-in-chunks.ts';
import { REFERRER_DOMAIN, rangeParams } from '../../src/modules/event-store/duckdb/sql.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { DAY_MS } from '../../src/reading/time-range.ts';
import { storeRows } from '../support/event-stores.ts';
import { eventBuilder, sequence } from './event-builder.ts';

const HOUR_MS = 3_600_000;

/**
 * `keyed_sessions` (ADR 109): a filtered question finds the sessions wholly inside its range from their
 * rows and the sessions its range cuts through from their events. The passing sessions must be those of
 * the definition (docs/analytics.md, "Filters"), asked here of the events as the filter did before: for
 * every list, an event of the session in [from, to) carries one of its values (`referrers`: the session's
 * first page view in the range came from one of the domains).
 */
const PROJECT = 'p-keyed';
const DAY0 = Date.UTC(2026, 2, 1);
const event = eventBuilder(PROJECT);
const pick = sequence(109);

const COUNTRIES = ['US', 'DE', 'JP', null];
const BROWSERS = ['Chrome', 'Firefox', null];
const PROVIDERS = ['MetaMask', 'Rabby', null];
const REFERRERS = ['https://www.google.com/x', 'https://twitter.com/a', 'https://app.example.com/self', null];

/**
 * 60 sessions over five days, 1–6 events each, some lasting more than a day, some sharing an id between
 * two users; the values change between a session's events, so that a range's edge decides what passes.
 */
function generated(): EventRow[] {
  const rows: EventRow[] = [];
  for (let s = 0; s < 60; s++) {
    const start = DAY0 + Math.floor(s / 12) * DAY_MS + pick([0, 3, 7, 11, 15, 20, 23]) * HOUR_MS;
    const step = pick([60_000, HOUR_MS, 5 * HOUR_MS, 13 * HOUR_MS]);
    const count = pick([1, 2, 3, 4, 6]);
    for (let e = 0; e < count; e++) {
      rows.push(
        event(pick(['page_view', 'page_view', 'wallet_connected', 'tx']), start + e * step, {
          session_id: `s${s % 50}`,
          user_id: s >= 50 ? `v${s}` : `u${s}`,
          country: pick(COUNTRIES),
          browser: pick(BROWSERS),
          os: pick(['macOS', 'Windows', null]),
          device: pick(['desktop', 'mobile']),
          wallet_provider: pick(PROVIDERS),
          chain_id: pick([1, 10, null]),
          utm_source: pick(['newsletter', null]),
          utm_medium: pick(['email', null]),
          utm_campaign: pick(['launch', null]),
          path: pick(['/', '/swap', '/pool']),
          referrer: pick(REFERRERS),
          tx_id: `t${s}-${e}`,
          tx_stage: 'submitted',
        }),
      );
    }
  }
  return rows;
}

const FILTER_SETS: AnalyticsFilters[] = [
  { countries: ['US'] },
  { countries: ['US', 'JP'], browsers: ['Chrome'], walletProviders: ['MetaMask'] },
  { oses: ['macOS'], devices: ['mobile'], chains: [10] },
  { sources: ['newsletter'], mediums: ['email'], campaigns: ['launch'], pages: ['/swap'] },
  { referrers: ['google.com'] },
  { referrers: ['twitter.com', 'google.com'], countries: ['DE'] },
];

/** Ranges whose edges fall inside sessions (mid-day, a minute, a day and a half) and one beyond the data. */
const RANGES = [
  { fromMs: DAY0 + 5 * HOUR_MS, toMs: DAY0 + 2 * DAY_MS + 12 * HOUR_MS },
  { fromMs: DAY0 + DAY_MS + 11 * HOUR_MS + 30 * 60_000, toMs: DAY0 + DAY_MS + 11 * HOUR_MS + 31 * 60_000 },
  { fromMs: DAY0 + 2 * DAY_MS + 20 * HOUR_MS, toMs: DAY0 + 3 * DAY_MS + 3 * HOUR_MS },
  { fromMs: DAY0 + DAY_MS, toMs: DAY0 + 4 * DAY_MS },
  { fromMs: DAY0 - DAY_MS, toMs: DAY0 + 10 * DAY_MS },
];

/** The definition, asked of the events: every session of the range grouped. */
function definitionSql(filters: AnalyticsFilters): string {
  const conditions = Object.entries(ANALYTICS_FILTER_COLUMNS)
    .filter(([key]) => (filters[key as keyof AnalyticsFilters]?.length ?? 0) > 0)
    .map(([key, column]) => {
      const list = `$filter_${key}::${key === 'chains' ? 'BIGINT' : 'VARCHAR'}[]`;
      return key === 'referrers'
        ? `coalesce(list_contains(${list}, arg_min(coalesce(${REFERRER_DOMAIN}, ''), (ts, id)) FILTER (WHERE type = 'page_view')), false)`
        : `coalesce(bool_or(list_contains(${list}, ${column})), false)`;
    });
  return `SELECT session_key FROM events
           WHERE project_id = $project AND ts >= make_timestamp($from::BIGINT * 1000) AND ts < make_timestamp($to::BIGINT * 1000)
           GROUP BY session_key HAVING ${conditions.join(' AND ')}`;
}

const keysOf = async (connection: DuckDBConnection, sql: string, params: Record<string, unknown>) =>
  (await connection.runAndReadAll(`SELECT session_key FROM (${sql}) ORDER BY 1`, params as never))
    .getRows()
    .map(([key]) => String(key));

describe('keyed_sessions and the filtered sessions (ADR 109)', () => {
  let store: DuckDbEventStore;
  let connection: DuckDBConnection;
  beforeAll(async () => {
    store = await createDuckDbEventStore({ file: ':memory:' });
    connection = await store.connect();
    // In three loads, the last one first: sessions go on across loads, earlier events arrive later.
    const rows = generated();
    const third = Math.floor(rows.length / 3);
    await storeRows(store, rows.slice(2 * third));
    await storeRows(store, rows.slice(0, third));
    await storeRows(store, rows.slice(third, 2 * third));
  });
  afterAll(async () => {
    connection.closeSync();
    await store.close();
  });

  it('hold one row per session key, the same as a rebuild from the events', async () => {
    const read = async () =>
      (await connection.runAndReadAll('SELECT * FROM keyed_sessions ORDER BY ALL')).getRowObjectsJS();
    const loaded = await read();
    expect(loaded).toHaveLength(50);
    const rebuilt = await inTransaction(connection, async () => {
      await rebuildDerivedTables(connection, ['keyed_sessions']);
      return read();
    });
    expect(loaded).toEqual(rebuilt);
    // Direct and the dapp's own host are '' (no domain); a session with no page view has no landing.
    const landings = new Set(loaded.map((row) => row.landing_referrer));
    expect([...landings].sort()).toEqual(expect.arrayContaining(['', 'google.com', 'twitter.com']));
  });

  it('are the same rows in the same order when rebuilt in chunks of the session keys (ADR 113)', async () => {
    const read = async () =>
      (await connection.runAndReadAll('SELECT * FROM keyed_sessions ORDER BY ALL')).getRowObjectsJS();
    const loaded = await read();
    const events = Number((await connection.runAndReadAll('SELECT count(*) FROM events')).getRows()[0]?.[0]);
    const limit = async () =>
      String((await connection.runAndReadAll("SELECT current_setting('memory_limit')")).getRows()[0]?.[0]);
    const limitBefore = await limit();
    const { rebuilt, stored, staging } = await inTransaction(connection, async () => {
      // About ten chunks: the rows of every chunk must reach the table.
      await rebuildDerivedTables(connection, ['keyed_sessions'], { chunkEvents: Math.ceil(events / 10) });
      const inStorageOrder = await connection.runAndReadAll(
        'SELECT project_id, epoch_us(last_ts) FROM keyed_sessions',
      );
      const tables = await connection.runAndReadAll(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'keyed_sessions_chunks'",
      );
      return {
        rebuilt: await read(),
        stored: inStorageOrder.getRows().map(([project, last]) => [String(project), Number(last)]),
        staging: Number(tables.getRows()[0]?.[0]),
      };
    });
    expect(loaded).toHaveLength(50);
    expect(rebuilt).toEqual(loaded);
    // Written clustered by (project, last time), as the one-statement rebuild did; no staging left.
    const sorted = [...stored].sort(([p1, t1], [p2, t2]) =>
      p1 === p2 ? Number(t1) - Number(t2) : String(p1) < String(p2) ? -1 : 1,
    );
    expect(stored).toEqual(sorted);
    expect(staging).toBe(0);
    // The sort's bounded limit (REBUILD_SORT_MEMORY_MB) is the caller's again afterwards (as DuckDB
    // shows it: '18.8 GiB' set again may read '18.7 GiB').
    const [amount, unit] = (await limit()).split(' ');
    expect(unit).toBe(limitBefore.split(' ')[1]);
    expect(Number(amount)).toBeCloseTo(Number(limitBefore.split(' ')[0]), 0);
  });

  it("sort under the caller's limit when DuckDB refuses the bounded one, as with more than that in use", async () => {
    const read = async () =>
      (await connection.runAndReadAll('SELECT * FROM keyed_sessions ORDER BY ALL')).getRowObjectsJS();
    const loaded = await read();
    const limit = async () =>
      String((await connection.runAndReadAll("SELECT current_setting('memory_limit')")).getRows()[0]?.[0]);
    const limitBefore = await limit();
    // DuckDB's answer to a limit below the memory in use (a 10 M-event store's staged rows held more).
    const limitsTried: string[] = [];
    const refusing = new Proxy(connection, {
      get(target, property) {
        if (property === 'run')
          return async (sql: string, ...rest: unknown[]) => {
            const bounded = /^SET GLOBAL memory_limit = '(\d+)MB'$/.exec(sql);
            if (bounded?.[1]) {
              limitsTried.push(bounded[1]);
              throw new Error(`Out of Memory Error: Failed to change memory limit to ${bounded[1]}000000`);
            }
            return target.run(sql, ...(rest as []));
          };
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const rebuilt = await inTransaction(connection, async () => {
      await rebuildDerivedTables(refusing, ['keyed_sessions'], { chunkEvents: 20 });
      return read();
    });
    expect(rebuilt).toEqual(loaded);
    // The bounded limit asked: REBUILD_SORT_MEMORY_MB above what DuckDB held; the caller's limit untouched.
    expect(limitsTried).toHaveLength(1);
    expect(Number(limitsTried[0])).toBeGreaterThanOrEqual(REBUILD_SORT_MEMORY_MB);
    expect(await limit()).toBe(limitBefore);
  });

  it('pass the sessions the definition passes, over ranges that cut sessions at either edge', async () => {
    let compared = 0;
    let passing = 0;
    for (const range of RANGES) {
      for (const filters of FILTER_SETS) {
        const filter = await eventFilter(connection, PROJECT, range, filters);
        const params = { ...rangeParams(PROJECT, range), ...filter.params };
        const found = await keysOf(
          connection,
          `WITH ${filter.cte} SELECT session_key FROM filtered_sessions`,
          params,
        );
        const expected = await keysOf(connection, definitionSql(filters), {
          ...rangeParams(PROJECT, range),
          ...Object.fromEntries(Object.entries(filter.params).filter(([name]) => !name.includes('_cut_'))),
        });
        expect(found, JSON.stringify({ range, filters })).toEqual(expected);
        compared += 1;
        passing += expected.length;
      }
    }
    expect(compared).toBe(30);
    // Not a vacuous comparison: sessions pass, and some ranges cut sessions whose values differ inside.
    expect(passing).toBeGreaterThan(30);
  });

  it("keep a filtered transaction by its request's session, one longer than the stage window too, in the failed-transaction cost", async () => {
    const project = 'p-keyed-cost';
    const at = eventBuilder(project);
    const from = DAY0 + 20 * DAY_MS;
    const range = { fromMs: from, toMs: from + 10 * DAY_MS };
    const stage = (txId: string, session: string, ts: number, txStage: string, gas: bigint | null) =>
      at('tx', ts, {
        session_id: session,
        country: session === 'us' ? 'US' : 'DE',
        tx_id: txId,
        tx_stage: txStage,
        chain_id: 1,
        tx_to: '0xc',
        selector: '0x12345678',
        gas_used: gas,
        effective_gas_price: gas === null ? null : 1n,
      });
    await storeRows(store, [
      // Requested in the US session, reverted three days later (longer than the stage window).
      stage('long', 'us', from + HOUR_MS, 'requested', null),
      stage('long', 'later', from + 3 * DAY_MS, 'reverted', 1000n),
      // Short ones: confirmed in the US session, reverted in the German one.
      stage('short', 'us', from + 2 * HOUR_MS, 'requested', null),
      stage('short', 'us', from + 2 * HOUR_MS + 5000, 'confirmed', 30n),
      stage('de', 'de', from + 2 * HOUR_MS, 'requested', null),
      stage('de', 'de', from + 2 * HOUR_MS + 5000, 'reverted', 400n),
    ]);
    const cost = await store.failedTransactionCost(project, range, { countries: ['US'] });
    expect(cost.chains).toEqual([
      { chainId: 1, gasPaidWei: '1030', gasBurnedWei: '1000', reverted: 1, failedBeforeSubmission: 0 },
    ]);
    const all = await store.failedTransactionCost(project, range);
    expect(all.chains).toMatchObject([{ chainId: 1, gasPaidWei: '1430', gasBurnedWei: '1400', reverted: 2 }]);
  });
});
