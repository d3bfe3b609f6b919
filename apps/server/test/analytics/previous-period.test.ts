import { describe, expect, it } from 'vitest';
import { dataOf, errorOf } from './graphql-client.ts';
import { useAnalyticsWorld } from './setup.ts';

/**
 * `previous: true` (docs/analytics.md, "The previous period"): the same question over the period before
 * the range, like with like while the range runs past now. Every figure is derived by hand from
 * events-fixture.ts.
 */
const world = useAnalyticsWorld();

const OVERVIEW = `query Overview($projectId: ID!, $from: DateTime, $to: DateTime, $previous: Boolean) {
  analyticsOverview(projectId: $projectId, from: $from, to: $to, previous: $previous) {
    from to totalTransactions connectedWallets newWallets submittedTransactions failedTransactions
    attemptedTransactions transactionFailRate dailyActiveWallets averageTransactionsPerUserPerDay
    dailyActiveWalletsTrend { current previous }
  }
}`;

const SERIES = (field: string) => `
  query Series($projectId: ID!, $from: DateTime, $to: DateTime, $granularity: String, $previous: Boolean) {
    ${field}(projectId: $projectId, from: $from, to: $to, granularity: $granularity, previous: $previous) { from to value }
  }`;

type Answer = Record<string, unknown>;

async function overview(variables: Record<string, unknown>, token?: string): Promise<Answer> {
  const answer = await world.gql(OVERVIEW, { projectId: world.main, ...variables }, token);
  return dataOf(answer).analyticsOverview as Answer;
}

async function series(field: string, variables: Record<string, unknown>, token?: string) {
  const answer = await world.gql(SERIES(field), { projectId: world.main, ...variables }, token);
  return dataOf(answer)[field] as { from: string; to: string; value: number | null }[];
}

/** Runs `check` with the server's clock at `iso`, signed in at that time (a later session is refused). */
async function at(iso: string, check: (token: string) => Promise<void>) {
  const { clock } = world.test;
  clock.advance(Date.parse(iso) - clock().getTime());
  try {
    const { token } = await world.test.services.sessions.issue({ ...world.owner, session_version: 0 });
    await check(token);
  } finally {
    clock.reset();
  }
}

/** The test clock keeps ticking after a move: a cut at "now" is within a few seconds of the moved time. */
const nearly = (iso: string) => (value: unknown) => {
  const gap = Date.parse(String(value)) - Date.parse(iso);
  return gap >= 0 && gap < 5_000;
};

describe('analyticsOverview(previous: true)', () => {
  it('answers every tile for the period of equal length just before a past range', async () => {
    // [Feb 2, Feb 4) → [Jan 31, Feb 2).
    const previous = await overview({ from: '2024-02-02', to: '2024-02-04', previous: true });
    expect(previous).toEqual({
      from: '2024-01-31T00:00:00.000Z',
      to: '2024-02-02T00:00:00.000Z',
      // tx-0 (Jan 31), tx-1 and tx-2 (Feb 1).
      totalTransactions: 3,
      // W2 (Jan 31 23:59:59.999 and Feb 1), W1 (Feb 1).
      connectedWallets: 2,
      // W2: first carried at Jan 31 23:59:59.999, inside; W1 was seen on Jan 15.
      newWallets: 1,
      submittedTransactions: 2,
      failedTransactions: 0,
      // tx-2 was rejected by the user: not attempted.
      attemptedTransactions: 2,
      transactionFailRate: 0,
      // Jan 31 {W1 (tx-0), W2}, Feb 1 {W1, W2}: 4 wallet-days over 2 days.
      dailyActiveWallets: 2,
      // 3 transactions over user-days Jan 31 {u1, u2} + Feb 1 {u1, u2, u5} = 5.
      averageTransactionsPerUserPerDay: 0.6,
      dailyActiveWalletsTrend: { current: 2, previous: 0 },
    });
    // The same question over the shifted range, asked directly, answers the same.
    expect(await overview({ from: '2024-01-31', to: '2024-02-02' })).toEqual(previous);
    // And it is what the Daily Active Wallets Trend of the range compares with.
    const current = await overview({ from: '2024-02-02', to: '2024-02-04' });
    expect((current.dailyActiveWalletsTrend as Answer).previous).toBe(previous.dailyActiveWallets);
  });

  it('compares today until now with yesterday until the same time (fixed clock, 09:30 on Feb 2)', async () => {
    await at('2024-02-02T09:30:00Z', async (token) => {
      const previous = await overview({ from: '2024-02-02', to: '2024-02-03', previous: true }, token);
      expect(previous.from).toBe('2024-02-01T00:00:00.000Z');
      expect(previous.to).toSatisfy(nearly('2024-02-01T09:30:00Z'));
      expect(previous).toMatchObject({
        // Feb 1 before 09:30: tx-1 (09:10); tx-2 (12:00) is after the cut.
        totalTransactions: 1,
        // W2 (00:00) and W1 (09:00), both seen before Feb 1.
        connectedWallets: 2,
        newWallets: 0,
        submittedTransactions: 1,
        attemptedTransactions: 1,
        transactionFailRate: 0,
        // W1 (tx-0's receipt at 00:05, its connection) and W2: 2 wallets on one day.
        dailyActiveWallets: 2,
        // u1 and u2; u5 visits at 10:00, after the cut.
        averageTransactionsPerUserPerDay: 0.5,
      });
      // The whole of Feb 1 differs: the cut matters.
      const wholeDay = await overview({ from: '2024-02-01', to: '2024-02-02' }, token);
      expect(wholeDay).toMatchObject({ totalTransactions: 2, averageTransactionsPerUserPerDay: 2 / 3 });
    });
  });

  it('cuts a multi-day range running past now at the same point of the period before', async () => {
    // [Feb 2, Feb 4) at Feb 3 09:30 → [Jan 31, Feb 1 09:30): tx-0 and tx-1, not tx-2 (Feb 1 12:00).
    await at('2024-02-03T09:30:00Z', async (token) => {
      const previous = await overview({ from: '2024-02-02', to: '2024-02-04', previous: true }, token);
      expect(previous.from).toBe('2024-01-31T00:00:00.000Z');
      expect(previous.to).toSatisfy(nearly('2024-02-01T09:30:00Z'));
      expect(previous).toMatchObject({ totalTransactions: 2, submittedTransactions: 2, connectedWallets: 2 });
    });
  });

  it('answers zeros for a previous period without events, and refuses a malformed flag', async () => {
    expect(await overview({ from: '2024-01-01', to: '2024-01-08', previous: true })).toMatchObject({
      from: '2023-12-25T00:00:00.000Z',
      to: '2024-01-01T00:00:00.000Z',
      totalTransactions: 0,
      connectedWallets: 0,
      transactionFailRate: null,
      averageTransactionsPerUserPerDay: null,
    });
    const refused = await world.gql(OVERVIEW, { projectId: world.main, previous: 'yes' });
    expect(errorOf(refused).code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('answers NOT_FOUND for another owner’s project, with no figures', async () => {
    const answer = await world.gql(OVERVIEW, { projectId: world.foreign, previous: true });
    expect(errorOf(answer).code).toBe('NOT_FOUND');
    expect(answer.data).toBeNull();
  });
});

describe('series(previous: true)', () => {
  it('answers the previous period’s buckets, bucket i beside the range’s bucket i', async () => {
    const range = { from: '2024-02-01', to: '2024-02-04', granularity: '1d' };
    expect(await series('totalTransactions', { ...range, previous: true })).toEqual([
      { from: '2024-01-29T00:00:00.000Z', to: '2024-01-30T00:00:00.000Z', value: 0 },
      { from: '2024-01-30T00:00:00.000Z', to: '2024-01-31T00:00:00.000Z', value: 0 },
      // tx-0.
      { from: '2024-01-31T00:00:00.000Z', to: '2024-02-01T00:00:00.000Z', value: 1 },
    ]);
    // [Feb 4, Feb 7) → [Feb 1, Feb 4): the connections, failures and gas prices of the first three days.
    const later = { from: '2024-02-04', to: '2024-02-07', granularity: '1d', previous: true };
    expect((await series('totalConnectedWallets', later)).map((b) => b.value)).toEqual([2, 2, 0]);
    expect((await series('totalNewWallets', later)).map((b) => b.value)).toEqual([0, 1, 0]);
    expect((await series('failedTransactions', later)).map((b) => b.value)).toEqual([0, 2, 0]);
    // Receipts: Feb 1 tx-0 (10 gwei) and tx-1 (20 gwei); Feb 2 tx-3 (30) and tx-5 (40); none on Feb 3.
    expect((await series('averageGasPrice', later)).map((b) => b.value)).toEqual([15e9, 35e9, null]);
  });

  it('ends the previous series at the same time of day while today runs (fixed clock, 09:30)', async () => {
    await at('2024-02-02T09:30:00Z', async (token) => {
      const today = { from: '2024-02-02', to: '2024-02-03', granularity: '1h' };
      const previous = await series('totalTransactions', { ...today, previous: true }, token);
      // 00:00–09:30 of Feb 1: nine whole hours and the half hour 09:00–09:30, which holds tx-1 (09:10).
      expect(previous).toHaveLength(10);
      expect(previous[0]?.from).toBe('2024-02-01T00:00:00.000Z');
      expect(previous.at(-1)?.from).toBe('2024-02-01T09:00:00.000Z');
      expect(previous.at(-1)?.to).toSatisfy(nearly('2024-02-01T09:30:00Z'));
      expect(previous.map((b) => b.value)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    });
  });
});
