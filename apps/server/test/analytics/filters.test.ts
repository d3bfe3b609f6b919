import { beforeAll, describe, expect, it } from 'vitest';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { parseCsv } from '../event-export/support.ts';
import { apiClient, errorOf as restErrorOf } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { C2, eventRow, txRows } from './events-fixture.ts';
import { dataOf, errorOf } from './graphql-client.ts';
import { useAnalyticsWorld } from './setup.ts';

/**
 * The Analytics filters (docs/analytics.md, "Filters"): a filter keeps the sessions of which an event in
 * the range carries one of its values, and every figure is asked of those sessions' events (a
 * transaction: of its request's session). In the main fixture each user has one session; `visits` below
 * gives one user two sessions, one of which matches, to tell a session filter from a user filter.
 */
const world = useAnalyticsWorld();
const FEB_1_TO_4 = { from: '2024-02-01T00:00:00Z', to: '2024-02-04T00:00:00Z' };
let visits = '';

beforeAll(async () => {
  const { id, email } = world.owner;
  visits = (await world.test.services.projects.createProject({ id, email, ip: '127.0.0.1' }, 'Visits')).id;
  const e = eventRow;
  const at = (session: string, extra: Parameters<typeof eventRow>[4] = {}) => ({
    session_id: session,
    ...extra,
  });
  await storeRows(world.test.services.eventStore, [
    // u1's first session: from Google, lands on /swap with the newsletter's UTM, connects W1, swaps.
    e(
      visits,
      '2024-02-01T10:00:00Z',
      'u1',
      'page_view',
      at('v1', {
        path: '/swap',
        referrer: 'https://www.google.com/search?q=dapp',
        utm_source: 'newsletter',
        os: 'Linux',
        device: 'desktop',
      }),
    ),
    e(
      visits,
      '2024-02-01T10:01:00Z',
      'u1',
      'wallet_connected',
      at('v1', { path: '/swap', withWallet: true }),
    ),
    ...txRows(visits, {
      txId: 'v-tx-1',
      user: 'u1',
      kind: 'contract',
      chainId: 10,
      to: C2,
      selector: '0x12345678',
      hash: `0x${'ab'.repeat(32)}`,
      stages: [
        ['requested', '2024-02-01T10:02:00Z'],
        ['submitted', '2024-02-01T10:02:05Z'],
      ],
    }).map((row) => ({ ...row, session_id: 'v1', path: '/swap' })),
    // u1's second session, the next day: direct, on the phone, views / and /pool; another swap.
    e(
      visits,
      '2024-02-02T09:00:00Z',
      'u1',
      'page_view',
      at('v2', { path: '/', device: 'mobile', os: 'iOS' }),
    ),
    e(
      visits,
      '2024-02-02T09:01:00Z',
      'u1',
      'page_view',
      at('v2', { path: '/pool', device: 'mobile', os: 'iOS' }),
    ),
    ...txRows(visits, {
      txId: 'v-tx-2',
      user: 'u1',
      kind: 'coin',
      chainId: 10,
      hash: `0x${'cd'.repeat(32)}`,
      stages: [
        ['requested', '2024-02-02T09:02:00Z'],
        ['submitted', '2024-02-02T09:02:05Z'],
      ],
    }).map((row) => ({ ...row, session_id: 'v2', path: '/pool', device: 'mobile', os: 'iOS' })),
    // u5 from Twitter (x.com), views /swap, never connects.
    e(
      visits,
      '2024-02-01T11:00:00Z',
      'u5',
      'page_view',
      at('v3', {
        path: '/swap',
        referrer: 'https://x.com/some/post',
        utm_source: 'x',
      }),
    ),
  ]);
});

const OVERVIEW = `query Overview($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AnalyticsFilters) {
  analyticsOverview(projectId: $projectId, from: $from, to: $to, filters: $filters) {
    totalTransactions connectedWallets newWallets submittedTransactions failedTransactions
    attemptedTransactions transactionFailRate dailyActiveWallets averageTransactionsPerUserPerDay
    dailyActiveWalletsTrend { current previous change }
  }
}`;

const CARDS = `query Cards($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AnalyticsFilters) {
  countries(projectId: $projectId, from: $from, to: $to, filters: $filters) { key value }
  browsers(projectId: $projectId, from: $from, to: $to, filters: $filters) { key value }
  operatingSystems(projectId: $projectId, from: $from, to: $to, filters: $filters) { key value }
  devices(projectId: $projectId, from: $from, to: $to, filters: $filters) { key value }
  sources(projectId: $projectId, from: $from, to: $to, filters: $filters) { key value }
  walletProviders(projectId: $projectId, from: $from, to: $to, filters: $filters) { key value }
  contractFunctions(projectId: $projectId, from: $from, to: $to, filters: $filters) { chainId contract selector calls }
  topPages(projectId: $projectId, from: $from, to: $to, filters: $filters) { path users wallets transactions }
  topReferrers(projectId: $projectId, from: $from, to: $to, filters: $filters) { domain users wallets transactions }
}`;

const SERIES = `query Series($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AnalyticsFilters) {
  totalConnectedWallets(projectId: $projectId, from: $from, to: $to, granularity: "1d", filters: $filters) { value }
  totalNewWallets(projectId: $projectId, from: $from, to: $to, granularity: "1d", filters: $filters) { value }
  totalTransactions(projectId: $projectId, from: $from, to: $to, granularity: "1d", filters: $filters) { value }
  failedTransactions(projectId: $projectId, from: $from, to: $to, granularity: "1d", filters: $filters) { value }
  averageGasPrice(projectId: $projectId, from: $from, to: $to, granularity: "1d", filters: $filters) { value }
}`;

const ask = async (query: string, projectId: string, filters: Record<string, unknown> | null) =>
  dataOf(await world.gql(query, { projectId, ...FEB_1_TO_4, filters }));
const values = (buckets: unknown) => (buckets as { value: unknown }[]).map((bucket) => bucket.value);

describe('Analytics filters', () => {
  it('answers the overview of the US sessions only', async () => {
    const { analyticsOverview } = await ask(OVERVIEW, world.main, { countries: ['US'] });
    expect(analyticsOverview).toEqual({
      // u2's tx-2 and tx-3, u3's tx-5 and tx-6.
      totalTransactions: 4,
      // W2 (u2, Feb 1 00:00) and W3 (u3).
      connectedWallets: 2,
      // W3: W2 connected on Jan 31.
      newWallets: 1,
      submittedTransactions: 3,
      // tx-3 reverted.
      failedTransactions: 1,
      attemptedTransactions: 3,
      transactionFailRate: 1 / 3,
      // Wallet-days: Feb 1 {W2}, Feb 2 {W2, W3}, Feb 3 {W3} = 4 over 3 days.
      dailyActiveWallets: 4 / 3,
      // 4 transactions over user-days Feb 1 {u2}, Feb 2 {u2, u3}, Feb 3 {u3}.
      averageTransactionsPerUserPerDay: 1,
      dailyActiveWalletsTrend: {
        current: 4 / 3,
        // Jan 29 – Feb 1, matched over that period: u2's connection on Jan 31 (W2), one wallet-day.
        previous: 1 / 3,
        change: expect.closeTo(3, 10),
      },
    });
  });

  it('combines lists with AND and values with OR', async () => {
    const both = await ask(CARDS, world.main, { countries: ['US'], browsers: ['Chrome'] });
    // Only u3 is in the US on Chrome.
    expect(both.countries).toEqual([{ key: 'US', value: 1 }]);
    expect(both.walletProviders).toEqual([{ key: 'MetaMask', value: 1 }]);
    const either = await ask(CARDS, world.main, { countries: ['US', 'DE'] });
    // u1 (DE), u2 and u3 (US) in Feb 1–4.
    expect(either.countries).toEqual([
      { key: 'US', value: 2 },
      { key: 'DE', value: 1 },
    ]);
    expect(either.browsers).toEqual([
      { key: 'Chrome', value: 2 },
      { key: 'Firefox', value: 1 },
    ]);
  });

  it('filters by chain, OS and wallet provider', async () => {
    // Chain 137: u2's session (tx-2 rejected, tx-3 submitted to C2).
    const polygon = await ask(CARDS, world.main, { chains: [137] });
    expect(polygon.contractFunctions).toEqual([
      { chainId: 137, contract: C2, selector: '0x12345678', calls: 1 },
    ]);
    expect(polygon.countries).toEqual([{ key: 'US', value: 1 }]);
    // Windows: u2 (US, Firefox) and u5 (FR, Chrome); u6 is on Mar 1.
    const windows = await ask(CARDS, world.main, { oses: ['Windows'] });
    expect(windows.browsers).toEqual([
      { key: 'Chrome', value: 1 },
      { key: 'Firefox', value: 1 },
    ]);
    // The MetaMask sessions (u1, u3): their transactions' series by day.
    const metamask = await ask(SERIES, world.main, { walletProviders: ['MetaMask'] });
    expect(values(metamask.totalTransactions)).toEqual([1, 1, 1]);
    expect(values(metamask.totalConnectedWallets)).toEqual([1, 1, 0]);
    expect(values(metamask.totalNewWallets)).toEqual([0, 1, 0]);
    expect(values(metamask.failedTransactions)).toEqual([0, 0, 0]);
    // tx-0's receipt (u1, 10 gwei) and tx-1's (20) on Feb 1; tx-5's (40) on Feb 2.
    expect(values(metamask.averageGasPrice)).toEqual([15e9, 40e9, null]);
  });

  it('splits users by operating system, device type and landing source, filtered or not', async () => {
    const plain = await ask(CARDS, world.main, null);
    // Feb 1–4: u1 Linux, u2 and u5 Windows, u3 Mac OS, u4 iOS; every event on a desktop; no UTM.
    expect(plain.operatingSystems).toEqual([
      { key: 'Windows', value: 2 },
      // Ties in byte order.
      { key: 'Linux', value: 1 },
      { key: 'Mac OS', value: 1 },
      { key: 'iOS', value: 1 },
    ]);
    expect(plain.devices).toEqual([{ key: 'desktop', value: 5 }]);
    expect(plain.sources).toEqual([{ key: null, value: 5 }]);
    const visited = await ask(CARDS, visits, null);
    // u1's first session and u5's on a desktop, u1's second on a phone.
    expect(visited.devices).toEqual([
      { key: 'desktop', value: 2 },
      { key: 'mobile', value: 1 },
    ]);
    // The landing UTM is on u1's first page view and u5's; u1's other events carry none.
    expect(visited.sources).toEqual([
      { key: 'newsletter', value: 1 },
      { key: 'x', value: 1 },
      { key: null, value: 1 },
    ]);
    const phone = await ask(CARDS, visits, { devices: ['mobile'] });
    expect(phone.sources).toEqual([{ key: null, value: 1 }]);
    expect(phone.operatingSystems).toEqual([{ key: 'iOS', value: 1 }]);
  });

  it('keeps the matching session, not every session of its user', async () => {
    // u1's first session came from google.com; the second, the next day, was direct.
    const google = await ask(CARDS, visits, { referrers: ['google.com'] });
    expect(google.topReferrers).toEqual([{ domain: 'google.com', users: 1, wallets: 1, transactions: 1 }]);
    expect(google.topPages).toEqual([{ path: '/swap', users: 1, wallets: 1, transactions: 1 }]);
    expect(google.contractFunctions).toEqual([
      { chainId: 10, contract: C2, selector: '0x12345678', calls: 1 },
    ]);
    const { analyticsOverview } = await ask(OVERVIEW, visits, { referrers: ['google.com'] });
    expect(analyticsOverview).toMatchObject({ totalTransactions: 1, connectedWallets: 1 });
    // The phone session: /pool and its coin transfer; no wallet connected in it.
    const phone = await ask(CARDS, visits, { devices: ['mobile'] });
    expect(phone.topPages).toEqual([
      { path: '/pool', users: 1, wallets: 0, transactions: 1 },
      { path: '/', users: 1, wallets: 0, transactions: 0 },
    ]);
    expect(phone.topReferrers).toEqual([{ domain: null, users: 1, wallets: 0, transactions: 1 }]);
    // A page filter keeps both sessions that viewed /swap (u1's first and u5's), a source one only u5's.
    const swap = await ask(CARDS, visits, { pages: ['/swap'] });
    expect(swap.topReferrers).toEqual([
      { domain: 'google.com', users: 1, wallets: 1, transactions: 1 },
      { domain: 'x.com', users: 1, wallets: 0, transactions: 0 },
    ]);
    const fromX = await ask(CARDS, visits, { sources: ['x'], pages: ['/swap'] });
    expect(fromX.countries).toEqual([{ key: 'FR', value: 1 }]);
    expect(fromX.walletProviders).toEqual([]);
    // A value nothing carries keeps nothing.
    const none = await ask(OVERVIEW, visits, { campaigns: ['spring'] });
    expect(none.analyticsOverview).toMatchObject({ totalTransactions: 0, connectedWallets: 0 });
  });

  it("averages a receipt's gas price under its transaction's request session, wherever the receipt was logged", async () => {
    const { id, email } = world.owner;
    const receipts = (
      await world.test.services.projects.createProject({ id, email, ip: '127.0.0.1' }, 'Receipts')
    ).id;
    const GWEI = 1_000_000_000n;
    const mined = (gwei: bigint) => ({
      gas_used: 21_000n,
      effective_gas_price: gwei * GWEI,
      block_number: 9n,
    });
    const inSession = (session: string, device: string) => (row: EventRow) => ({
      ...row,
      session_id: session,
      device,
    });
    await storeRows(world.test.services.eventStore, [
      eventRow(receipts, '2024-02-01T10:00:00Z', 'u1', 'page_view', { session_id: 'r1', device: 'desktop' }),
      // Requested on the desktop; its receipt came after the user moved to the phone (a new session).
      ...txRows(receipts, {
        txId: 'r-tx-1',
        user: 'u1',
        kind: 'coin',
        chainId: 1,
        hash: `0x${'e1'.repeat(32)}`,
        stages: [
          ['requested', '2024-02-01T10:01:00Z'],
          ['submitted', '2024-02-01T10:01:05Z'],
        ],
      }).map(inSession('r1', 'desktop')),
      eventRow(receipts, '2024-02-01T10:20:00Z', 'u1', 'page_view', { session_id: 'r2', device: 'mobile' }),
      ...txRows(receipts, {
        txId: 'r-tx-1',
        user: 'u1',
        kind: 'coin',
        chainId: 1,
        hash: `0x${'e1'.repeat(32)}`,
        stages: [['confirmed', '2024-02-01T10:21:00Z', mined(5n)]],
      }).map(inSession('r2', 'mobile')),
      // Wholly on the phone.
      ...txRows(receipts, {
        txId: 'r-tx-2',
        user: 'u1',
        kind: 'coin',
        chainId: 1,
        hash: `0x${'e2'.repeat(32)}`,
        stages: [
          ['requested', '2024-02-01T10:30:00Z'],
          ['submitted', '2024-02-01T10:30:05Z'],
          ['confirmed', '2024-02-01T10:31:00Z', mined(1n)],
        ],
      }).map(inSession('r2', 'mobile')),
    ]);
    const desktop = await ask(SERIES, receipts, { devices: ['desktop'] });
    expect(values(desktop.totalTransactions)).toEqual([1, 0, 0]);
    expect(values(desktop.averageGasPrice)).toEqual([5e9, null, null]);
    const phone = await ask(SERIES, receipts, { devices: ['mobile'] });
    expect(values(phone.totalTransactions)).toEqual([1, 0, 0]);
    expect(values(phone.averageGasPrice)).toEqual([1e9, null, null]);
    const all = await ask(SERIES, receipts, null);
    expect(values(all.averageGasPrice)).toEqual([3e9, null, null]);
  });

  it('counts a blank landing source as none, not as a source of its own', async () => {
    const { id, email } = world.owner;
    const blank = (await world.test.services.projects.createProject({ id, email, ip: '127.0.0.1' }, 'Blank'))
      .id;
    await storeRows(world.test.services.eventStore, [
      // `?utm_source=&utm_medium=cpc`: the SDK sends the blank source as it is.
      eventRow(blank, '2024-02-01T10:00:00Z', 'u1', 'page_view', { session_id: 'b1', utm_source: '' }),
      eventRow(blank, '2024-02-01T11:00:00Z', 'u2', 'page_view', { session_id: 'b2', utm_source: 'x' }),
      eventRow(blank, '2024-02-01T12:00:00Z', 'u3', 'page_view', { session_id: 'b3' }),
    ]);
    const { sources } = await ask(CARDS, blank, null);
    expect(sources).toEqual([
      { key: null, value: 2 },
      { key: 'x', value: 1 },
    ]);
  });

  it('answers as without filters when every list is empty or null', async () => {
    const plain = await ask(CARDS, world.main, null);
    expect(await ask(CARDS, world.main, { countries: [], browsers: null })).toEqual(plain);
    expect(await ask(OVERVIEW, world.main, {})).toEqual(await ask(OVERVIEW, world.main, null));
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['101 values in one list', { countries: Array.from({ length: 101 }, (_, i) => `C${i}`) }, /countries/],
    ['a value of 257 characters', { pages: [`/${'a'.repeat(256)}`] }, /pages/],
    ['an empty value', { referrers: [''] }, /referrers/],
    ['a chain id below 1', { chains: [0] }, /chains/],
  ])('refuses %s with BAD_USER_INPUT', async (_name, filters, message) => {
    const answer = await world.gql(OVERVIEW, { projectId: world.main, filters });
    expect(answer.status).toBe(400);
    expect(errorOf(answer).code).toBe('BAD_USER_INPUT');
    expect(errorOf(answer).message).toMatch(message);
    expect(answer.data ?? null).toBeNull();
  });

  it('refuses an unknown dimension', async () => {
    const answer = await world.gql(OVERVIEW, { projectId: world.main, filters: { cities: ['Berlin'] } });
    expect(answer.status).toBe(400);
    expect(answer.data ?? null).toBeNull();
    expect(errorOf(answer).message).toMatch(/cities/);
  });

  it("answers another user's project as absent, filtered or not", async () => {
    const answer = await world.gql(OVERVIEW, {
      projectId: world.foreign,
      ...FEB_1_TO_4,
      filters: { countries: ['US'] },
    });
    expect(errorOf(answer).code).toBe('NOT_FOUND');
  });
});

const HISTORY = `query History($projectId: ID!, $from: DateTime, $to: DateTime, $first: Int, $after: String,
    $status: String, $filters: AnalyticsFilters) {
  transactionHistory(projectId: $projectId, from: $from, to: $to, first: $first, after: $after,
      status: $status, filters: $filters) {
    rows { id }
    nextCursor
    total
  }
}`;

type HistoryPage = { rows: { id: string }[]; nextCursor: string | null; total: number };
const historyOf = async (projectId: string, variables: Record<string, unknown>) =>
  dataOf(await world.gql(HISTORY, { projectId, ...variables })).transactionHistory as HistoryPage;

describe('Analytics filters on the Transaction History', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    // All time, newest first: tx-6, tx-5, tx-3, tx-4, tx-2, tx-1, tx-0; one session per user.
    ['the US sessions (u2, u3)', { filters: { countries: ['US'] } }, ['tx-6', 'tx-5', 'tx-3', 'tx-2']],
    [
      'the MetaMask sessions (u1, u3)',
      { filters: { walletProviders: ['MetaMask'] } },
      ['tx-6', 'tx-5', 'tx-1', 'tx-0'],
    ],
    ['chain 137: u2 session', { filters: { chains: [137] } }, ['tx-3', 'tx-2']],
    ['Germany and Safari (lists AND)', { filters: { countries: ['DE'], browsers: ['Safari'] } }, []],
    [
      'Germany, Feb 1–4 (tx-0 was requested on Jan 31)',
      { ...FEB_1_TO_4, filters: { countries: ['DE'] } },
      ['tx-1'],
    ],
    ['the US and confirmed', { status: 'confirmed', filters: { countries: ['US'] } }, ['tx-5']],
  ])('keeps %s, the total counting them', async (_name, variables, expected) => {
    const page = await historyOf(world.main, variables);
    expect(page.rows.map((row) => row.id)).toEqual(expected);
    expect(page.total).toBe(expected.length);
  });

  it("keeps a transaction by its request's session, not by its user", async () => {
    // u1's phone session holds v-tx-2 alone; the Google one v-tx-1.
    const phone = await historyOf(visits, { ...FEB_1_TO_4, filters: { devices: ['mobile'] } });
    expect(phone.rows.map((row) => row.id)).toEqual(['v-tx-2']);
    const google = await historyOf(visits, { ...FEB_1_TO_4, filters: { referrers: ['google.com'] } });
    expect(google.rows.map((row) => row.id)).toEqual(['v-tx-1']);
    expect(google.total).toBe(1);
  });

  it('keeps a transaction whose stages lie more than a day apart by its request in the range', async () => {
    const { id, email } = world.owner;
    const slow = (await world.test.services.projects.createProject({ id, email, ip: '127.0.0.1' }, 'Slow'))
      .id;
    await storeRows(world.test.services.eventStore, [
      // Requested on Feb 1 in u1's phone session, confirmed two days later from another session.
      ...txRows(slow, {
        txId: 'slow-tx',
        user: 'u1',
        kind: 'coin',
        chainId: 10,
        hash: `0x${'ef'.repeat(32)}`,
        stages: [
          ['requested', '2024-02-01T12:00:00Z', { session_id: 'p1', device: 'mobile' }],
          ['submitted', '2024-02-01T12:00:05Z', { session_id: 'p1', device: 'mobile' }],
          ['confirmed', '2024-02-03T12:00:00Z', { session_id: 'p2', device: 'desktop' }],
        ],
      }),
    ]);
    const phone = await historyOf(slow, { ...FEB_1_TO_4, filters: { devices: ['mobile'] } });
    expect(phone.rows.map((row) => row.id)).toEqual(['slow-tx']);
    expect(phone.total).toBe(1);
    const overview = await world.gql(OVERVIEW, {
      projectId: slow,
      ...FEB_1_TO_4,
      filters: { devices: ['mobile'] },
    });
    expect(dataOf(overview).analyticsOverview).toMatchObject({
      totalTransactions: 1,
      submittedTransactions: 1,
    });
    const desktop = await historyOf(slow, { ...FEB_1_TO_4, filters: { devices: ['desktop'] } });
    expect(desktop.total).toBe(0);
  });

  it('pages through the filtered history with the same total', async () => {
    const first = await historyOf(world.main, { first: 3, filters: { countries: ['US'] } });
    expect(first.rows.map((row) => row.id)).toEqual(['tx-6', 'tx-5', 'tx-3']);
    const second = await historyOf(world.main, {
      first: 3,
      after: first.nextCursor,
      filters: { countries: ['US'] },
    });
    expect(second.rows.map((row) => row.id)).toEqual(['tx-2']);
    expect([first.total, second.total]).toEqual([4, 4]);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses a bad list with BAD_USER_INPUT', async () => {
    const answer = await world.gql(HISTORY, { projectId: world.main, filters: { chains: [0] } });
    expect(errorOf(answer).code).toBe('BAD_USER_INPUT');
    expect(errorOf(answer).message).toMatch(/chains/);
  });
});

describe('Analytics filters on the history CSV', () => {
  const csv = (projectId: string, query: string) =>
    apiClient(world.test.app).get(`projects/${projectId}/transactions.csv?${query}`, {
      token: world.owner.token,
    });
  const idsOf = (body: string) =>
    parseCsv(body)
      .slice(1)
      .map((record) => record[0]);

  it.each([
    ['countries=US', ['tx-6', 'tx-5', 'tx-3', 'tx-2']],
    ['countries=US&countries=DE&type=Coin', ['tx-6', 'tx-0']],
    ['walletProviders=MetaMask&status=confirmed', ['tx-5', 'tx-1', 'tx-0']],
    ['chains=137', ['tx-3', 'tx-2']],
    ['referrers=google.com', []],
  ])('%s streams what the history keeps', async (query, expected) => {
    const response = await csv(world.main, query);
    expect(response.statusCode).toBe(200);
    expect(idsOf(response.body)).toEqual(expected);
  });

  it("keeps a session's transactions, not its user's", async () => {
    const response = await csv(visits, 'devices=mobile&from=2024-02-01&to=2024-02-04');
    expect(idsOf(response.body)).toEqual(['v-tx-2']);
  });

  it.each([
    ['a chain id that is not a number', 'chains=polygon', 'INVALID_REQUEST_BODY', /chains/],
    ['a chain id of 0', 'chains=0', 'INVALID_REQUEST_BODY', /chains/],
    ['an empty value', 'countries=', 'INVALID_REQUEST_BODY', /countries/],
    ['a value of 257 characters', `pages=/${'a'.repeat(256)}`, 'INVALID_REQUEST_BODY', /pages/],
    [
      '101 values',
      Array.from({ length: 101 }, (_, i) => `browsers=b${i}`).join('&'),
      'INVALID_REQUEST_BODY',
      /browsers/,
    ],
    ['an unknown list', 'cities=Berlin', 'INVALID_REQUEST', /cities|Invalid query/],
  ])('refuses %s with a 400', async (_name, query, code, message) => {
    const response = await csv(world.main, query);
    expect(response.statusCode).toBe(400);
    expect(restErrorOf(response)).toMatchObject({ errorCode: code, message: expect.stringMatching(message) });
  });

  it("answers 404 for another user's project, filtered", async () => {
    expect((await csv(world.foreign, 'countries=US')).statusCode).toBe(404);
  });
});
