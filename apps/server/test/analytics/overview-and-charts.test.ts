import { describe, expect, it } from 'vitest';
import { C1, C2 } from './events-fixture.ts';
import { dataOf } from './graphql-client.ts';
import { useAnalyticsWorld } from './setup.ts';

const world = useAnalyticsWorld();
const FEB_1_TO_4 = { from: '2024-02-01T00:00:00Z', to: '2024-02-04T00:00:00Z' };

const OVERVIEW = `query Overview($projectId: ID!, $from: DateTime, $to: DateTime) {
  analyticsOverview(projectId: $projectId, from: $from, to: $to) {
    from to totalTransactions connectedWallets newWallets submittedTransactions failedTransactions
    attemptedTransactions transactionFailRate dailyActiveWallets averageTransactionsPerUserPerDay
    dailyActiveWalletsTrend { current previous change previousFrom previousTo }
  }
}`;

const overview = async (projectId: string, range: Record<string, unknown>) =>
  dataOf(await world.gql(OVERVIEW, { projectId, ...range })).analyticsOverview as Record<string, unknown>;

describe('analyticsOverview', () => {
  it('answers every tile for a range', async () => {
    expect(await overview(world.main, FEB_1_TO_4)).toEqual({
      from: '2024-02-01T00:00:00.000Z',
      to: '2024-02-04T00:00:00.000Z',
      // tx-1 … tx-6 (tx-0 was requested on Jan 31).
      totalTransactions: 6,
      // W2, W1, W4, W3.
      connectedWallets: 4,
      // W3 only: W1 and W2 connected before, W4 was seen on an error event in January.
      newWallets: 1,
      // tx-1, tx-3, tx-5, tx-6.
      submittedTransactions: 4,
      // tx-3 reverted, tx-4 failed before submission.
      failedTransactions: 2,
      // The fail rate's denominator: 4 submitted + 1 failed before submission; tx-2 was rejected by the user.
      attemptedTransactions: 5,
      transactionFailRate: 0.4,
      // Wallet-days: Feb 1 {W1, W2}, Feb 2 {W2, W3, W4}, Feb 3 {W3} = 6 over 3 days.
      dailyActiveWallets: 2,
      // 6 transactions over user-days: Feb 1 {u1, u2, u5}, Feb 2 {u2, u3, u4}, Feb 3 {u3, u5} = 8.
      averageTransactionsPerUserPerDay: 0.75,
      dailyActiveWalletsTrend: {
        current: 2,
        // Jan 29 – Feb 1: only Jan 31 had wallets (W1's tx-0, W2's connection): 2 wallet-days over 3 days.
        previous: 2 / 3,
        change: expect.closeTo(2, 10),
        previousFrom: '2024-01-29T00:00:00.000Z',
        previousTo: '2024-02-01T00:00:00.000Z',
      },
    });
  });

  it('compares a day in progress with the same hours of the day before (like with like)', async () => {
    const { clock } = world.test;
    const noon = Date.parse('2024-02-02T12:00:00Z');
    clock.advance(noon - clock().getTime());
    try {
      const today = await overview(world.main, { from: '2024-02-02', to: '2024-02-03' });
      const trend = today.dailyActiveWalletsTrend as Record<string, unknown>;
      expect(trend.previousFrom).toBe('2024-02-01T00:00:00.000Z');
      // Yesterday until the same time of day, not the whole of yesterday (the test clock ticks on a little).
      const previousTo = Date.parse(String(trend.previousTo));
      expect(previousTo - Date.parse('2024-02-01T12:00:00Z')).toBeGreaterThanOrEqual(0);
      expect(previousTo - Date.parse('2024-02-01T12:00:00Z')).toBeLessThan(5_000);
      // Feb 1 before noon: W1 and W2 (both their Feb 1 events are in the morning) over one day.
      expect(trend.previous).toBe(2);
      // A range that also runs past now (Feb 1–4 at Feb 2 noon) is cut the same way.
      const week = await overview(world.main, FEB_1_TO_4);
      const weekTrend = week.dailyActiveWalletsTrend as Record<string, unknown>;
      expect(weekTrend.previousFrom).toBe('2024-01-29T00:00:00.000Z');
      expect(String(weekTrend.previousTo).slice(0, 16)).toBe('2024-01-30T12:00');
    } finally {
      clock.reset();
    }
  });

  it('answers zeros and nulls for an empty project and for a range without events', async () => {
    const zeros = {
      totalTransactions: 0,
      connectedWallets: 0,
      newWallets: 0,
      submittedTransactions: 0,
      failedTransactions: 0,
      attemptedTransactions: 0,
      transactionFailRate: null,
      dailyActiveWallets: 0,
      averageTransactionsPerUserPerDay: null,
    };
    expect(await overview(world.empty, FEB_1_TO_4)).toMatchObject({
      ...zeros,
      dailyActiveWalletsTrend: { current: 0, previous: 0, change: null },
    });
    expect(await overview(world.main, { from: '2024-05-01', to: '2024-05-08' })).toMatchObject(zeros);
    // All time on an empty project: one day up to now, still all zeros.
    expect(await overview(world.empty, {})).toMatchObject(zeros);
  });

  it('covers all time without a range: from the day of the first event', async () => {
    const allTime = await overview(world.main, {});
    expect(allTime).toMatchObject({
      from: '2024-01-15T00:00:00.000Z',
      totalTransactions: 7,
      connectedWallets: 5,
    });
  });
});

describe('charts', () => {
  it('ranks the most executed contract functions (submitted only), naming well-known selectors', async () => {
    const query = `query F($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int) {
      contractFunctions(projectId: $projectId, from: $from, to: $to, limit: $limit) { chainId contract selector functionName calls }
    }`;
    const rows = dataOf(await world.gql(query, { projectId: world.main, ...FEB_1_TO_4 })).contractFunctions;
    expect(rows).toEqual([
      {
        chainId: 1,
        contract: C1,
        selector: '0xa9059cbb',
        functionName: 'transfer(address,uint256)',
        calls: 2,
      },
      { chainId: 137, contract: C2, selector: '0x12345678', functionName: null, calls: 1 },
    ]);
    const top = dataOf(
      await world.gql(query, { projectId: world.main, ...FEB_1_TO_4, limit: 1 }),
    ).contractFunctions;
    expect(top).toHaveLength(1);
  });

  it('counts distinct connected wallets per wallet provider', async () => {
    const query = `query P($projectId: ID!, $from: DateTime, $to: DateTime) {
      walletProviders(projectId: $projectId, from: $from, to: $to) { key value }
    }`;
    expect(dataOf(await world.gql(query, { projectId: world.main, ...FEB_1_TO_4 })).walletProviders).toEqual([
      { key: 'MetaMask', value: 2 },
      { key: 'Coinbase Wallet', value: 1 },
      { key: 'Rabby Wallet', value: 1 },
    ]);
  });

  it('counts distinct users per country (unknown last) and per browser', async () => {
    const query = `query C($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int) {
      countries(projectId: $projectId, from: $from, to: $to, limit: $limit) { key value }
      browsers(projectId: $projectId, from: $from, to: $to, limit: $limit) { key value }
    }`;
    const data = dataOf(await world.gql(query, { projectId: world.main, ...FEB_1_TO_4 }));
    expect(data.countries).toEqual([
      { key: 'US', value: 2 },
      { key: 'DE', value: 1 },
      { key: 'FR', value: 1 },
      { key: null, value: 1 },
    ]);
    expect(data.browsers).toEqual([
      { key: 'Chrome', value: 3 },
      { key: 'Firefox', value: 1 },
      { key: 'Safari', value: 1 },
    ]);
    const limited = dataOf(await world.gql(query, { projectId: world.main, ...FEB_1_TO_4, limit: 1 }));
    expect(limited.countries).toEqual([{ key: 'US', value: 2 }]);
  });

  it('answers empty lists for an empty project', async () => {
    const query = `query E($projectId: ID!) {
      contractFunctions(projectId: $projectId) { contract }
      walletProviders(projectId: $projectId) { key }
      countries(projectId: $projectId) { key }
      browsers(projectId: $projectId) { key }
    }`;
    expect(dataOf(await world.gql(query, { projectId: world.empty }))).toEqual({
      contractFunctions: [],
      walletProviders: [],
      countries: [],
      browsers: [],
    });
  });
});
