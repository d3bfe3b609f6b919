import { beforeAll, describe, expect, it } from 'vitest';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { dataOf, errorOf, graphqlClient } from '../analytics/graphql-client.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';

/**
 * The wallet page's timeline in pages (docs/wallets.md, "The wallet page"): the newest 10 sessions, then
 * `walletSessions` after the page's cursor. Run on DuckDB and, by vitest.clickhouse.config.ts, on
 * ClickHouse (chdb).
 *
 * WS has 13 sessions, one per day 06-01…06-12 (a page view without a wallet at 08:59, its connection at
 * 09:00) and a second one on 06-03 (`ws-06-03-b`) whose connection is at the same 09:00 as `ws-06-03-a`:
 * by (latest time, id) newest first, page 1 is 06-12…06-04 and ws-06-03-a, page 2 ws-06-03-b, 06-02, 06-01.
 * The 06-10 session started the evening before (a page view at 06-09 23:30, no wallet): its events
 * include it. The 06-12 session is stored twice (an SDK retry): each of its events is shown once.
 * WO, another wallet, has sessions on the same days. WG sent two transactions on chain 1: tx-g confirmed
 * (21,000 gas × 10 gwei = 2.1e14 wei) by a receipt that carries no wallet, tx-h reverted (30,000 × 1 gwei
 * = 3e13) by one that carries it.
 */

const WS = `0x${'5a'.repeat(20)}`;
const WO = `0x${'6b'.repeat(20)}`;
const WG = `0x${'7c'.repeat(20)}`;
const GWEI = 1_000_000_000n;
const DAYS = Array.from({ length: 12 }, (_, index) => `2024-06-${String(index + 1).padStart(2, '0')}`);

function events(projectId: string): { rows: EventRow[]; replayed: EventRow[] } {
  let counter = 0;
  const row = (at: string, session: string, wallet: string | null, type: string): EventRow => {
    const ts = Date.parse(at);
    return {
      ...blankRow({
        project_id: projectId,
        id: `sev_${(counter++).toString().padStart(4, '0')}`,
        type,
        ts,
        received_at: ts + 100,
        user_id: session.slice(0, 2),
        session_id: session,
        origin: 'app.example.com',
      }),
      path: '/swap',
      wallet_provider: 'MetaMask',
      wallet_address: wallet,
      chain_id: 1,
    };
  };
  const rows: EventRow[] = [];
  const sessionOf = (day: string, session: string, wallet: string) => [
    row(`${day}T08:59:00Z`, session, null, 'page_view'),
    row(`${day}T09:00:00Z`, session, wallet, 'wallet_connected'),
  ];
  for (const day of DAYS) {
    const suffix = day === '2024-06-03' ? '-a' : '';
    rows.push(
      ...sessionOf(day, `ws-${day.slice(5)}${suffix}`, WS),
      ...sessionOf(day, `wo-${day.slice(5)}`, WO),
    );
  }
  rows.push(...sessionOf('2024-06-03', 'ws-06-03-b', WS));
  // WG's transactions: tx-g's receipt comes after it disconnected (no wallet, no from), tx-h's carries it.
  const stage = (at: string, tx: string, txStage: string, wallet: string | null, gwei?: bigint) => ({
    ...row(at, 'wg-06-05', wallet, 'tx'),
    tx_id: tx,
    tx_stage: txStage,
    tx_from: wallet,
    ...(gwei !== undefined && {
      gas_used: tx === 'tx-g' ? 21_000n : 30_000n,
      effective_gas_price: gwei * GWEI,
    }),
  });
  rows.push(
    ...sessionOf('2024-06-05', 'wg-06-05', WG),
    { ...row('2024-06-05T09:30:00Z', 'wg-06-05', WG, 'custom'), event_name: 'quote_requested' },
    stage('2024-06-05T10:00:00Z', 'tx-g', 'requested', WG),
    stage('2024-06-05T10:02:00Z', 'tx-g', 'confirmed', null, 10n),
    stage('2024-06-05T10:05:00Z', 'tx-h', 'requested', WG),
    stage('2024-06-05T10:06:00Z', 'tx-h', 'reverted', WG, 1n),
  );
  rows.push(row('2024-06-09T23:30:00Z', 'ws-06-10', null, 'page_view'));
  return { rows, replayed: rows.filter((event) => event.session_id === 'ws-06-12') };
}

const test = useTestApp('sqlite');
let owner: SeededUser;
let stranger: SeededUser;
let main: string;
let gql: (
  query: string,
  variables: Record<string, unknown>,
  token?: string,
) => ReturnType<ReturnType<typeof graphqlClient>>;

beforeAll(async () => {
  const { user, project } = await seed(test.services).user().verified().project('Sessions');
  const { user: someoneElse } = await seed(test.services).user().verified().project('Foreign');
  owner = user;
  stranger = someoneElse;
  main = project.id;
  const { rows, replayed } = events(main);
  await storeRows(test.services.eventStore, rows);
  await storeRows(test.services.eventStore, replayed);
  const client = graphqlClient(test.app);
  gql = (query, variables, token) => client(query, variables, { token: token ?? owner.token });
});

const PAGE = `query W($projectId: ID!, $address: String!) {
  wallet(projectId: $projectId, address: $address) {
    sessionCount olderSessions
    sessions { sessionId startedAt endedAt events { eventId type walletAddress } }
  }
}`;

const OLDER = `query S($projectId: ID!, $address: String!, $after: String!) {
  walletSessions(projectId: $projectId, address: $address, after: $after) {
    nextCursor
    sessions { sessionId startedAt endedAt events { eventId type walletAddress } }
  }
}`;

type Session = {
  sessionId: string;
  startedAt: string;
  events: { eventId: string; type: string; walletAddress: string | null }[];
};
type Page = { sessionCount: number; olderSessions: string | null; sessions: Session[] };
type Older = { nextCursor: string | null; sessions: Session[] };

const page = async (address = WS) =>
  dataOf(await gql(PAGE, { projectId: main, address })).wallet as Page | null;
const older = async (after: string, address = WS) =>
  dataOf(await gql(OLDER, { projectId: main, address, after })).walletSessions as Older;

describe('the wallet page’s sessions in pages', () => {
  it('answers the newest 10 sessions, then the older ones after the cursor, ties by session id', async () => {
    const first = await page();
    expect(first?.sessionCount).toBe(13);
    expect(first?.sessions.map((session) => session.sessionId)).toEqual([
      'ws-06-12',
      'ws-06-11',
      'ws-06-10',
      'ws-06-09',
      'ws-06-08',
      'ws-06-07',
      'ws-06-06',
      'ws-06-05',
      'ws-06-04',
      'ws-06-03-a',
    ]);
    expect(first?.olderSessions).toEqual(expect.any(String));
    const second = await older(first?.olderSessions as string);
    expect(second).toEqual({
      nextCursor: null,
      sessions: [
        expect.objectContaining({ sessionId: 'ws-06-03-b' }),
        expect.objectContaining({ sessionId: 'ws-06-02' }),
        expect.objectContaining({ sessionId: 'ws-06-01' }),
      ],
    });
    // Every event of a session, the page view without a wallet included.
    expect(second.sessions[2]?.events.map((event) => [event.type, event.walletAddress])).toEqual([
      ['page_view', null],
      ['wallet_connected', WS],
    ]);
  });

  it('shows a session’s events from before the wallet came, the day before included', async () => {
    const session = (await page())?.sessions.find((each) => each.sessionId === 'ws-06-10');
    expect(session?.startedAt).toBe('2024-06-09T23:30:00.000Z');
    expect(session?.events.map((event) => event.type)).toEqual([
      'page_view',
      'page_view',
      'wallet_connected',
    ]);
  });

  it('names a custom event in the timeline (it read "Custom" alone)', async () => {
    const answer = dataOf(
      await gql(
        `query W($projectId: ID!, $address: String!) {
          wallet(projectId: $projectId, address: $address) { sessions { events { type eventName } } }
        }`,
        { projectId: main, address: WG },
      ),
    ).wallet as { sessions: { events: { type: string; eventName: string | null }[] }[] };
    const events = answer.sessions.flatMap((session) => session.events);
    expect(events.filter((event) => event.type === 'custom')).toEqual([
      { type: 'custom', eventName: 'quote_requested' },
    ]);
    expect(events.filter((event) => event.type !== 'custom').every((event) => event.eventName === null)).toBe(
      true,
    );
  });

  it('shows each event of a replayed session once', async () => {
    const session = (await page())?.sessions[0];
    expect(session?.sessionId).toBe('ws-06-12');
    expect(session?.events.map((event) => event.type)).toEqual(['page_view', 'wallet_connected']);
    expect(new Set(session?.events.map((event) => event.eventId)).size).toBe(2);
  });

  it('pages each wallet by its own sessions', async () => {
    const other = await page(WO);
    expect(other?.sessions).toHaveLength(10);
    expect(other?.olderSessions).toEqual(expect.any(String));
    expect((await older(other?.olderSessions as string, WO)).sessions.map((s) => s.sessionId)).toEqual([
      'wo-06-02',
      'wo-06-01',
    ]);
  });

  it('refuses a cursor of another wallet or a made-up one, and another user’s project looks absent', async () => {
    const cursor = (await page())?.olderSessions as string;
    for (const [address, after] of [
      [WO, cursor],
      [WS, 'not-a-cursor'],
      [WS, Buffer.from(JSON.stringify([WS, 'x', 'ws-06-03-a'])).toString('base64url')],
      ['0x123', cursor],
    ]) {
      const refused = await gql(OLDER, { projectId: main, address, after });
      expect(errorOf(refused).code).toBe('BAD_USER_INPUT');
    }
    const foreign = await gql(OLDER, { projectId: main, address: WS, after: cursor }, stranger.token);
    expect(errorOf(foreign).code).toBe('NOT_FOUND');
  });

  it('counts the gas of a transaction whose receipt no longer carries the wallet', async () => {
    const answer = dataOf(
      await gql(
        `query G($projectId: ID!, $address: String!) {
          wallet(projectId: $projectId, address: $address) {
            transactions reverted gas { chainId gasPaidWei gasBurnedWei reverted }
          }
        }`,
        { projectId: main, address: WG },
      ),
    );
    expect(answer.wallet).toEqual({
      transactions: 2,
      reverted: 1,
      gas: [{ chainId: 1, gasPaidWei: '240000000000000', gasBurnedWei: '30000000000000', reverted: 1 }],
    });
  });

  it("lists the same figures for it, sorted by last seen (the page's transactions alone) or by gas", async () => {
    for (const sort of ['last_seen', 'gas_paid']) {
      const answer = dataOf(
        await gql(
          `query L($projectId: ID!, $sort: String) {
            wallets(projectId: $projectId, from: "2024-06-05T00:00:00Z", to: "2024-06-06T00:00:00Z", search: "${WG}", sort: $sort) {
              rows { address transactions failed gasPaidWei }
            }
          }`,
          { projectId: main, sort },
        ),
      );
      expect(answer.wallets).toEqual({
        rows: [{ address: WG, transactions: 2, failed: 1, gasPaidWei: '240000000000000' }],
      });
    }
  });

  it('answers nothing for a forgotten wallet, its old cursor included', async () => {
    const cursor = (await page(WO))?.olderSessions as string;
    const forgot = await apiClient(test.app).post(`projects/${main}/forget`, {
      token: owner.token,
      body: { wallet: WO },
    });
    expect(forgot.statusCode).toBe(200);
    expect(await page(WO)).toBeNull();
    expect(await older(cursor, WO)).toEqual({ nextCursor: null, sessions: [] });
    // The other wallet's pages are unchanged.
    expect((await page())?.sessions).toHaveLength(10);
  });
});
