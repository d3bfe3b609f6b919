import { describe, expect, it } from 'vitest';
import { dataOf, errorOf } from './graphql-client.ts';
import { SERIES_QUERY, useAnalyticsWorld, valuesOf } from './setup.ts';

const world = useAnalyticsWorld();
const FEB_1_TO_4 = { from: '2024-02-01T00:00:00Z', to: '2024-02-04T00:00:00Z', granularity: '1d' };

async function series(field: string, variables: Record<string, unknown>, projectId = world.main) {
  return dataOf(await world.gql(SERIES_QUERY(field), { projectId, ...variables }))[field] as {
    from: string;
    to: string;
    value: number;
  }[];
}

describe('totalConnectedWallets', () => {
  it('counts each wallet once, in the UTC day of its first connection in the range', async () => {
    expect(await series('totalConnectedWallets', FEB_1_TO_4)).toEqual([
      { from: '2024-02-01T00:00:00.000Z', to: '2024-02-02T00:00:00.000Z', value: 2 },
      { from: '2024-02-02T00:00:00.000Z', to: '2024-02-03T00:00:00.000Z', value: 2 },
      { from: '2024-02-03T00:00:00.000Z', to: '2024-02-04T00:00:00.000Z', value: 0 },
    ]);
  });

  it('puts the last millisecond of a month in that month and the first of the next in the next', async () => {
    // W2 connects at Jan 31 23:59:59.999 and again at Feb 1 00:00:00.000: only its first connection in the
    // range counts (January); February 1 has W1 only.
    const janEnd = await series('totalConnectedWallets', {
      from: '2024-01-31',
      to: '2024-02-02',
      granularity: '1d',
    });
    expect(valuesOf(janEnd)).toEqual([1, 1]);
    // Leap day: W3 at Feb 29 23:59:59.999, W5 at Mar 1 00:00:00.000.
    const leap = await series('totalConnectedWallets', {
      from: '2024-02-28',
      to: '2024-03-02',
      granularity: '1d',
    });
    expect(leap.map((b) => [b.from.slice(0, 10), b.value])).toEqual([
      ['2024-02-28', 0],
      ['2024-02-29', 1],
      ['2024-03-01', 1],
    ]);
  });

  it('is one bucket over all time without range or granularity', async () => {
    const [bucket, ...rest] = await series('totalConnectedWallets', {});
    expect(rest).toEqual([]);
    expect(bucket?.value).toBe(5);
    expect(bucket?.from).toBe('2024-01-15T00:00:00.000Z');
  });

  it('steps by a multi-part granularity and clips the last bucket at `to`', async () => {
    const buckets = await series('totalConnectedWallets', {
      from: '2024-02-01T00:00:00Z',
      to: '2024-02-03T00:00:00Z',
      granularity: '1d 6h',
    });
    expect(buckets).toEqual([
      { from: '2024-02-01T00:00:00.000Z', to: '2024-02-02T06:00:00.000Z', value: 2 },
      { from: '2024-02-02T06:00:00.000Z', to: '2024-02-03T00:00:00.000Z', value: 2 },
    ]);
  });
});

describe('totalNewWallets', () => {
  it('leaves out wallets seen before the range, even only on a non-connection event', async () => {
    // W1 connected in January, W2 at Jan 31 23:59:59.999, W4 appeared on an error event on Jan 20.
    expect(valuesOf(await series('totalNewWallets', FEB_1_TO_4))).toEqual([0, 1, 0]);
  });

  it('counts a wallet first seen in the range’s first millisecond as new', async () => {
    expect(
      valuesOf(await series('totalNewWallets', { from: '2024-01-31', to: '2024-02-03', granularity: '1d' })),
    ).toEqual([1, 0, 1]);
    expect(
      valuesOf(await series('totalNewWallets', { from: '2024-02-28', to: '2024-03-02', granularity: '1d' })),
    ).toEqual([0, 0, 1]);
  });

  it('is every connected wallet over all time', async () => {
    expect(valuesOf(await series('totalNewWallets', {}))).toEqual([5]);
  });
});

describe('totalTransactions and failedTransactions', () => {
  it('counts transactions of any status in the day of their request', async () => {
    // tx-0 was requested on Jan 31 and mined on Feb 1: it belongs to January.
    expect(valuesOf(await series('totalTransactions', FEB_1_TO_4))).toEqual([2, 3, 1]);
    expect(valuesOf(await series('totalTransactions', { from: '2024-01-31', to: '2024-02-01' }))).toEqual([
      1,
    ]);
    expect(valuesOf(await series('totalTransactions', {}))).toEqual([7]);
  });

  it('counts reverted and failed transactions', async () => {
    expect(valuesOf(await series('failedTransactions', FEB_1_TO_4))).toEqual([0, 2, 0]);
  });

  it('answers hourly buckets', async () => {
    const hours = await series('totalTransactions', {
      from: '2024-02-02T08:00:00Z',
      to: '2024-02-02T13:00:00Z',
      granularity: '1h',
    });
    expect(valuesOf(hours)).toEqual([1, 0, 1, 0, 1]);
  });
});

describe('averageGasPrice', () => {
  const query = `query Gas($projectId: ID!, $from: DateTime, $to: DateTime, $granularity: String, $chainId: ChainId) {
    averageGasPrice(projectId: $projectId, from: $from, to: $to, granularity: $granularity, chainId: $chainId) { from to value }
  }`;

  it('averages the effective gas price (wei) of the receipts logged in each bucket; null where none', async () => {
    const all = dataOf(await world.gql(query, { projectId: world.main, ...FEB_1_TO_4 })).averageGasPrice;
    expect(valuesOf(all)).toEqual([15e9, 35e9, null]);
    const mainnet = dataOf(
      await world.gql(query, { projectId: world.main, ...FEB_1_TO_4, chainId: 1 }),
    ).averageGasPrice;
    expect(valuesOf(mainnet)).toEqual([15e9, 40e9, null]);
  });
});

describe('ranges without events', () => {
  it('answers zero-filled buckets for an empty project and for a range with no events', async () => {
    expect(valuesOf(await series('totalTransactions', FEB_1_TO_4, world.empty))).toEqual([0, 0, 0]);
    expect(valuesOf(await series('totalConnectedWallets', {}, world.empty))).toEqual([0]);
    expect(
      valuesOf(await series('totalNewWallets', { from: '2024-05-01', to: '2024-05-08', granularity: '1d' })),
    ).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('bucket limits', () => {
  it('refuses too many buckets with a clear error instead of truncating', async () => {
    const answer = await world.gql(SERIES_QUERY('totalTransactions'), {
      projectId: world.main,
      from: '2024-01-01',
      to: '2024-04-01',
      granularity: '1m',
    });
    expect(errorOf(answer)).toEqual({
      code: 'BAD_USER_INPUT',
      message: expect.stringMatching(/131040 buckets; the limit is 5000/),
    });
    expect(answer.data).toBeNull();
  });

  it('answers 4,368 half-hour buckets over 91 days in full', async () => {
    const buckets = await series('totalTransactions', {
      from: '2024-01-01',
      to: '2024-04-01',
      granularity: '30m',
    });
    expect(buckets).toHaveLength(4368);
    expect(buckets.reduce((sum, b) => sum + b.value, 0)).toBe(7);
  });
});
