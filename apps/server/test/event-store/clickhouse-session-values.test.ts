import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { ClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import { eventFilter, withCtes } from '../../src/modules/event-store/clickhouse/event-filter.ts';
import { ANALYTICS_FILTER_COLUMNS } from '../../src/modules/event-store/domain.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { databaseAtVersion } from './clickhouse-older-database.ts';
import { eventBuilder } from './event-builder.ts';
import { writeSegment } from './segment-file.ts';

/**
 * `session_values` (ADR 101): per (project, list, value, UTC day, session key) the sessions whose events
 * of that day carried the value. Whatever the loads (duplicates, a segment loaded again, a session-day
 * split over two loads) and the deletes (a wallet, old events cut mid-day, a user, a project), the facts
 * it holds are those the stored events give; the Analytics filters read through it answer, for whole,
 * partial and sub-day ranges, the sessions the filters' definition gives; a database of schema version 23
 * gets it, filled, when the store starts on it.
 */

const PROJECT = 'p-ch-svalues';
const OTHER = 'p-ch-svalues-other';
const HOUR = 3_600_000;
const DAY = 86_400_000;
const DAY0 = Date.UTC(2026, 3, 1);
const WALLET = '0x00000000000000000000000000000000000000c3';

const event = eventBuilder(PROJECT);

/**
 * u1 from DE on Chrome, MetaMask on the first two days; u2 from US on Firefox, whose only Rabby events
 * are the wallet's (forgetting it changes a set), a session across midnight and one from FR; u3 shares
 * u1's session id `a1` (another user's rows of that session-day stay when u1's go); another project.
 */
function fixture(): EventRow[] {
  const u1 = { user_id: 'u1', country: 'DE', browser: 'Chrome', utm_campaign: 'launch', utm_source: 'x' };
  const u2 = { user_id: 'u2', country: 'US', browser: 'Firefox', utm_medium: 'cpc' };
  return [
    event('page_view', DAY0 + 9 * HOUR, { ...u1, session_id: 'a1' }),
    event('wallet_detected', DAY0 + 9 * HOUR + 1, { ...u1, session_id: 'a1', wallet_provider: 'MetaMask' }),
    event('page_view', DAY0 + DAY + 9 * HOUR, { ...u1, session_id: 'a2' }),
    event('wallet_detected', DAY0 + DAY + 9 * HOUR + 1, {
      ...u1,
      session_id: 'a2',
      wallet_provider: 'MetaMask',
    }),
    event('page_view', DAY0 + 2 * DAY + 9 * HOUR, { ...u1, session_id: 'a3', country: 'US' }),
    event('page_view', DAY0 + 10 * HOUR, { ...u2, session_id: 'b1' }),
    event('wallet_connected', DAY0 + 10 * HOUR + 1, {
      ...u2,
      session_id: 'b1',
      wallet_provider: 'Rabby Wallet',
      wallet_address: WALLET,
    }),
    event('page_view', DAY0 + DAY + 23 * HOUR, { ...u2, session_id: 'b2', country: 'FR' }),
    event('wallet_detected', DAY0 + 2 * DAY + HOUR, { ...u2, session_id: 'b2', wallet_provider: 'MetaMask' }),
    event('page_view', DAY0 + 14 * HOUR, {
      user_id: 'u3',
      session_id: 'a1',
      country: 'JP',
      browser: 'Chrome',
    }),
    event('page_view', DAY0 + DAY, { user_id: 'o1', session_id: 'o1', country: 'GB', project_id: OTHER }),
  ];
}

const LISTS = [
  ['countries', 'country'],
  ['browsers', 'browser'],
  ['wallet_providers', 'wallet_provider'],
  ['utm_sources', 'utm_source'],
  ['utm_mediums', 'utm_medium'],
  ['utm_campaigns', 'utm_campaign'],
] as const;
const Facts = z.object({ facts: z.array(z.string()) });

/** The (project, list, value, day, session key) facts the table holds, and those the stored events give. */
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
    held: await facts('SELECT (project_id, list, value, day, session_key) AS fact FROM session_values'),
    stored:
      await facts(`SELECT (project_id, pair.1, assumeNotNull(pair.2), toDate(ts, 'UTC'), cityHash64(session_id)) AS fact
      FROM events FINAL
     ARRAY JOIN [${LISTS.map(([list, column]) => `('${list}', toString(${column}))`).join(', ')}] AS pair
     WHERE pair.2 IS NOT NULL`),
  };
}

async function expectInLine(clickhouse: ClickHouse): Promise<string[]> {
  const { held, stored } = await heldAndStored(clickhouse);
  expect(held).toEqual(stored);
  return held;
}

const fact = (list: string, value: string, day: string, session: string) =>
  `('${PROJECT}','${list}','${value}','${day}',${session})`;

const SLOW = 120_000;
const suite = useChdbSuite('polyflow-ch-svalues-', SLOW);

const Key = z.object({ key: z.string() });
const keyOf = async (clickhouse: ClickHouse, session: string) =>
  (await clickhouse.rows(`SELECT toString(cityHash64({s:String})) AS key`, { s: session }, Key))[0]?.key;

/**
 * The session ids `filtered_sessions` holds for `filters` over [from, to): with the range's values given
 * (only the reads its days need), or not (every read, the conditions alone telling the days apart).
 */
async function filtered(
  clickhouse: ClickHouse,
  filters: AnalyticsFilters,
  from: number,
  to: number,
  knowing = true,
) {
  const filter = eventFilter(filters, knowing ? { fromMs: from, toMs: to } : undefined);
  const rows = await clickhouse.rows(
    `${withCtes(filter.cte)}
     SELECT DISTINCT session_id AS key FROM events
      WHERE project_id = {project:String} AND session_key IN (SELECT session_key FROM filtered_sessions)
      ORDER BY key`,
    { project: PROJECT, from, to, ...filter.params },
    Key,
  );
  return rows.map((row) => row.key);
}

/** The definition itself: the sessions of which, for every list, an event in [from, to) carries a value. */
async function defined(clickhouse: ClickHouse, filters: AnalyticsFilters, from: number, to: number) {
  const lists = Object.entries(filters).filter(([, values]) => values && values.length > 0);
  const rows = await clickhouse.rows(
    `SELECT session_id AS key FROM events FINAL
      WHERE project_id = {project:String}
        AND ts >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND ts < fromUnixTimestamp64Milli({to:Int64}, 'UTC')
      GROUP BY session_id
     HAVING ${lists
       .map(
         ([key], index) =>
           `countIf(has({l${index}:Array(String)}, ${ANALYTICS_FILTER_COLUMNS[key as keyof AnalyticsFilters]})) > 0`,
       )
       .join(' AND ')}
      ORDER BY key`,
    {
      project: PROJECT,
      from,
      to,
      ...Object.fromEntries(lists.map(([, values], index) => [`l${index}`, values as string[]])),
    },
    Key,
  );
  return rows.map((row) => row.key);
}

describe('ClickHouse session values (ADR 101)', { timeout: SLOW }, () => {
  it('hold what the stored events give however often they are loaded, and follow every kind of delete', async () => {
    const store = await templatedClickHouseStore(`${suite.url}/pf_svalues`);
    const rows = fixture();
    // u2's midnight session split over two loads; everything twice in one insert, then once more.
    await store.loadSegment(writeSegment(suite.dir, [...rows.slice(0, 8), ...rows.slice(0, 8)]));
    await store.loadSegment(writeSegment(suite.dir, rows.slice(8)));
    await store.loadSegment(writeSegment(suite.dir, rows));
    const b1 = await keyOf(store.clickhouse, 'b1');
    const a1 = await keyOf(store.clickhouse, 'a1');
    const held = await expectInLine(store.clickhouse);
    expect(held).toContain(fact('wallet_providers', 'Rabby Wallet', '2026-04-01', b1 as string));
    expect(held).toContain(fact('countries', 'JP', '2026-04-01', a1 as string));

    await store.deleteWalletEvents(PROJECT, WALLET.toUpperCase());
    const afterWallet = await expectInLine(store.clickhouse);
    expect(afterWallet).not.toContain(fact('wallet_providers', 'Rabby Wallet', '2026-04-01', b1 as string));
    expect(afterWallet).toContain(fact('countries', 'US', '2026-04-01', b1 as string));

    // u1 shares session a1 with u3: u3's facts of that session-day stay.
    await store.deleteUserEvents(PROJECT, 'u1');
    const afterUser = await expectInLine(store.clickhouse);
    expect(afterUser).not.toContain(fact('countries', 'DE', '2026-04-01', a1 as string));
    expect(afterUser).toContain(fact('countries', 'JP', '2026-04-01', a1 as string));

    // Retention cut in the middle of the second day: u2's 23:00 event of that day stays.
    await store.deleteEventsBefore(PROJECT, new Date(DAY0 + DAY + 12 * HOUR));
    const afterRetention = await expectInLine(store.clickhouse);
    expect(afterRetention.some((held) => held.includes('2026-04-01'))).toBe(false);
    expect(afterRetention.some((held) => held.includes("'FR','2026-04-02'"))).toBe(true);

    await store.deleteProjectEvents(OTHER);
    expect((await expectInLine(store.clickhouse)).some((held) => held.includes(OTHER))).toBe(false);
    await store.deleteProjectEvents(PROJECT);
    expect(await expectInLine(store.clickhouse)).toEqual([]);
    await store.close();
  });

  it('give the Analytics filters the sessions of their definition over whole, partial and sub-day ranges', async () => {
    const store = await templatedClickHouseStore(`${suite.url}/pf_svalues_filters`);
    const rows = fixture();
    await store.loadSegment(writeSegment(suite.dir, [...rows, ...rows]));
    const ranges: [number, number][] = [
      [DAY0, DAY0 + 3 * DAY],
      [DAY0 + 9 * HOUR + 1, DAY0 + 2 * DAY + 2 * HOUR],
      [DAY0 + DAY + 12 * HOUR, DAY0 + 2 * DAY + 12 * HOUR],
      [DAY0 + 8 * HOUR, DAY0 + 11 * HOUR],
      [DAY0 + DAY, DAY0 + 2 * DAY + 9 * HOUR],
    ];
    const filterSets: AnalyticsFilters[] = [
      { countries: ['US'] },
      { countries: ['US', 'FR'], walletProviders: ['MetaMask'] },
      { browsers: ['Chrome'], walletProviders: ['MetaMask'], campaigns: ['launch'] },
      { countries: ['DE', 'JP'], sources: ['x'] },
      { mediums: ['cpc'], countries: ['FR'] },
      // Lists the table does not keep: the range's events grouped by session, as before.
      { countries: ['US'], devices: ['desktop'] },
    ];
    const answers: string[] = [];
    for (const [from, to] of ranges)
      for (const filters of filterSets) {
        const got = await filtered(store.clickhouse, filters, from, to);
        const expected = await defined(store.clickhouse, filters, from, to);
        expect(got, `${JSON.stringify(filters)} over [${from}, ${to})`).toEqual(expected);
        expect(await filtered(store.clickhouse, filters, from, to, false)).toEqual(expected);
        answers.push(got.join(','));
      }
    // The cases tell sessions apart: not every answer is empty or the same.
    expect(new Set(answers).size).toBeGreaterThan(4);
    // US and MetaMask on two different days of one session (b2 across midnight) pass together.
    expect(
      await filtered(
        store.clickhouse,
        { countries: ['FR'], walletProviders: ['MetaMask'] },
        DAY0,
        DAY0 + 3 * DAY,
      ),
    ).toEqual(['b2']);
    await store.close();
  });

  it('is created and filled when the store starts on a database of schema version 23', async () => {
    const url = `${suite.url}/pf_svalues_v23`;
    const rows = fixture();
    const tables = await databaseAtVersion(url, 23, (writer) =>
      writer.loadSegment(writeSegment(suite.dir, [...rows, ...rows])),
    );
    expect(tables).not.toContain('session_values');

    const store = await createClickHouseEventStore(url);
    expect(await expectInLine(store.clickhouse)).not.toEqual([]);
    // Loads after the upgrade go through the views.
    await store.loadSegment(
      writeSegment(suite.dir, [
        event('page_view', DAY0 + 3 * DAY, { user_id: 'u4', session_id: 'c1', country: 'NZ' }),
      ]),
    );
    const c1 = await keyOf(store.clickhouse, 'c1');
    expect(await expectInLine(store.clickhouse)).toContain(
      fact('countries', 'NZ', '2026-04-04', c1 as string),
    );
    await store.close();
  });
});
