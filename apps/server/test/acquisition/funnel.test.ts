import { AcquisitionFunnelSchema } from '@polyflow/contracts/acquisition';
import { describe, expect, it } from 'vitest';
import { dataOf } from '../analytics/graphql-client.ts';
import { RANGE } from './fixture.ts';
import { FUNNEL_QUERY, useAcquisitionWorld } from './setup.ts';

const world = useAcquisitionWorld();

/** users per step, in tile order: Total, Wallets, Connected, ≥1 TX, ≥2 TXs, Signed. */
async function funnel(variables: Record<string, unknown>, projectId = world.main) {
  const data = dataOf(await world.gql(FUNNEL_QUERY, { projectId, ...variables }));
  return AcquisitionFunnelSchema.parse(data.acquisitionFunnel);
}
const usersOf = async (variables: Record<string, unknown>) =>
  (await funnel(variables)).steps.map((s) => s.users);

describe('acquisitionFunnel', () => {
  it('counts distinct users per step over the range, with labels and shares of Total Users', async () => {
    const answer = await funnel(RANGE);
    expect(answer.from).toBe('2024-03-01T00:00:00.000Z');
    expect(answer.to).toBe('2024-03-08T00:00:00.000Z');
    expect(answer.steps).toEqual([
      { key: 'totalUsers', label: 'Total Users', users: 6, share: 1 },
      { key: 'haveWallets', label: 'Have Wallets', users: 5, share: 5 / 6 },
      { key: 'haveConnectedWallet', label: 'Have Connected Wallet', users: 4, share: 4 / 6 },
      { key: 'haveExecutedTransaction', label: 'Have Executed a Transaction', users: 3, share: 3 / 6 },
      {
        key: 'haveExecutedMultipleTransactions',
        label: 'Have Executed Multiple TXs',
        users: 1,
        share: 1 / 6,
      },
      { key: 'signedData', label: 'Signed Data', users: 2, share: 2 / 6 },
    ]);
  });

  it('counts only events inside the range', async () => {
    // From 03-04: s3..s7. u2 still has a wallet (Rabby on s3's events) and t4; W1's user u1 is gone.
    expect(await usersOf({ from: '2024-03-04', to: '2024-03-08' })).toEqual([5, 4, 3, 2, 0, 1]);
    // All time includes u7 (after the range) and s0.
    expect(await usersOf({})).toEqual([7, 6, 5, 3, 1, 2]);
    expect(await usersOf({ from: '2024-04-01', to: '2024-04-02' })).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it.each<[string, Record<string, string[]>, number[]]>([
    ['one country', { countries: ['DE'] }, [3, 2, 2, 2, 1, 2]],
    ['two countries', { countries: ['DE', 'US'] }, [4, 3, 3, 3, 1, 2]],
    ['a term', { terms: ['defi'] }, [2, 2, 1, 1, 1, 1]],
    ['country AND source', { countries: ['DE'], sources: ['twitter'] }, [2, 2, 2, 2, 1, 2]],
    ['a medium', { mediums: ['social'] }, [3, 3, 3, 2, 1, 2]],
    ['a campaign', { campaigns: ['airdrop'] }, [2, 2, 1, 0, 0, 0]],
    ['a content', { contents: ['banner-a'] }, [1, 1, 1, 1, 0, 1]],
    // Session level: u2's s2 (no transaction) and s3 (t4) both carry Rabby, so u2 counts with t4.
    ['a wallet provider', { walletProviders: ['Rabby Wallet'] }, [1, 1, 1, 1, 0, 0]],
    ['a browser', { browsers: ['Edge', 'Safari'] }, [2, 2, 1, 0, 0, 0]],
    ['a value nobody has', { countries: ['ZZ'] }, [0, 0, 0, 0, 0, 0]],
    ['empty lists (no filter)', { countries: [], terms: [] }, [6, 5, 4, 3, 1, 2]],
  ])('filters by %s', async (_name, filters, expected) => {
    expect(await usersOf({ ...RANGE, filters })).toEqual(expected);
  });

  it('answers zeros with null shares for a project without events', async () => {
    const answer = await funnel(RANGE, world.empty);
    expect(answer.steps.map((s) => [s.users, s.share])).toEqual(Array(6).fill([0, null]));
  });
});
