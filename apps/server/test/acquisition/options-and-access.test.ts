import { AcquisitionFilterOptionsSchema } from '@polyflow/contracts/acquisition';
import { describe, expect, it } from 'vitest';
import { dataOf, errorOf, graphqlClient } from '../analytics/graphql-client.ts';
import { RANGE } from './fixture.ts';
import { ATTRIBUTION_QUERY, FILTER_OPTIONS_QUERY, FUNNEL_QUERY, useAcquisitionWorld } from './setup.ts';

const world = useAcquisitionWorld();

describe('acquisitionFilterOptions', () => {
  it('lists every value in the range with its distinct users, most users first, blanks left out', async () => {
    const data = dataOf(await world.gql(FILTER_OPTIONS_QUERY, { projectId: world.main, ...RANGE }));
    const options = AcquisitionFilterOptionsSchema.parse(data.acquisitionFilterOptions);
    expect(options).toEqual({
      countries: [
        { value: 'DE', users: 3 },
        { value: 'FR', users: 1 },
        { value: 'GB', users: 1 },
        { value: 'US', users: 1 },
      ],
      terms: [
        { value: 'defi', users: 2 },
        { value: 'nft', users: 1 },
      ],
      sources: [
        { value: 'twitter', users: 3 },
        { value: 'discord', users: 1 },
      ],
      mediums: [{ value: 'social', users: 3 }],
      campaigns: [
        { value: 'launch', users: 3 },
        { value: 'airdrop', users: 2 },
      ],
      contents: [{ value: 'banner-a', users: 1 }],
      browsers: [
        { value: 'Chrome', users: 3 },
        { value: 'Edge', users: 1 },
        { value: 'Firefox', users: 1 },
        { value: 'Safari', users: 1 },
      ],
      walletProviders: [
        { value: 'MetaMask', users: 3 },
        { value: 'Coinbase Wallet', users: 1 },
        { value: 'Rabby Wallet', users: 1 },
      ],
    });
  });

  it('follows the range', async () => {
    const data = dataOf(
      await world.gql(FILTER_OPTIONS_QUERY, { projectId: world.main, from: '2024-03-09', to: '2024-03-10' }),
    );
    const options = AcquisitionFilterOptionsSchema.parse(data.acquisitionFilterOptions);
    expect(options.campaigns).toEqual([{ value: 'launch', users: 1 }]);
    expect(options.terms).toEqual([]);
  });
});

const EVERY_QUERY: [string, string, Record<string, unknown>][] = [
  ['acquisitionFunnel', FUNNEL_QUERY, {}],
  ['attribution', ATTRIBUTION_QUERY, { dimension: 'campaign' }],
  ['acquisitionFilterOptions', FILTER_OPTIONS_QUERY, {}],
];

describe('access', () => {
  it.each(EVERY_QUERY)(
    "%s answers NOT_FOUND and no data for another user's project",
    async (field, query, extra) => {
      expect(dataOf(await world.gql(query, { projectId: world.main, ...extra }))[field]).toBeTruthy();
      const answer = await world.gql(query, { projectId: world.foreign, ...extra });
      expect(answer.errors).toHaveLength(1);
      expect(errorOf(answer)).toEqual({ code: 'NOT_FOUND', message: 'Project not found.' });
      expect(answer.data ?? null).toBeNull();
      // The stranger sees their own copy.
      expect(
        dataOf(await world.gql(query, { projectId: world.foreign, ...extra }, world.stranger.token))[field],
      ).toBeTruthy();
    },
  );

  it.each(EVERY_QUERY)('%s requires a session', async (_field, query, extra) => {
    const answer = await graphqlClient(world.test.app)(query, { projectId: world.main, ...extra });
    expect(errorOf(answer).code).toBe('BAD_AUTHENTICATION');
    expect(answer.data ?? null).toBeNull();
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a malformed from', { from: 'yesterday' }, /Invalid from/],
    ['an inverted range', { from: '2024-03-08', to: '2024-03-01' }, /must be before/],
    [
      '101 values in one filter',
      { filters: { countries: Array.from({ length: 101 }, (_, i) => `C${i}`) } },
      /countries/,
    ],
    ['an empty value', { filters: { terms: [''] } }, /terms/],
  ])('refuses %s with BAD_USER_INPUT', async (_name, variables, message) => {
    const answer = await world.gql(FUNNEL_QUERY, { projectId: world.main, ...variables });
    expect(answer.status).toBe(400);
    expect(errorOf(answer).code).toBe('BAD_USER_INPUT');
    expect(errorOf(answer).message).toMatch(message);
    expect(answer.data ?? null).toBeNull();
  });

  it('refuses an unknown filter key at validation', async () => {
    const answer = await world.gql(FUNNEL_QUERY, { projectId: world.main, filters: { cities: ['Berlin'] } });
    expect(answer.status).toBe(400);
    expect(answer.data ?? null).toBeNull();
  });
});
