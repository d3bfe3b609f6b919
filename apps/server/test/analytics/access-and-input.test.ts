import { describe, expect, it } from 'vitest';
import { dataOf, errorOf, graphqlClient } from './graphql-client.ts';
import { SERIES_QUERY, useAnalyticsWorld } from './setup.ts';

const world = useAnalyticsWorld();

/** Every analytics query, each as its own document: none may answer for someone else's project. */
const EVERY_QUERY: Record<string, string> = {
  totalConnectedWallets: '{ value }',
  totalTransactions: '{ value }',
  totalNewWallets: '{ value }',
  failedTransactions: '{ value }',
  averageGasPrice: '{ value }',
  analyticsOverview: '{ totalTransactions }',
  contractFunctions: '{ calls }',
  walletProviders: '{ value }',
  countries: '{ value }',
  browsers: '{ value }',
  operatingSystems: '{ value }',
  devices: '{ value }',
  sources: '{ value }',
  transactionHistory: '{ rows { id } }',
  transaction: '{ id }',
};
const documentOf = (field: string) =>
  `query One($projectId: ID!) { ${field}(projectId: $projectId${field === 'transaction' ? ', id: "tx-1"' : ''}) ${EVERY_QUERY[field]} }`;

describe('ownership', () => {
  it.each(Object.keys(EVERY_QUERY))(
    "%s answers the owner, and NOT_FOUND with no data for another user's project",
    async (field) => {
      const own = dataOf(await world.gql(documentOf(field), { projectId: world.main }));
      expect(own[field]).not.toBeNull();
      const answer = await world.gql(documentOf(field), { projectId: world.foreign });
      expect(answer.errors).toHaveLength(1);
      expect(errorOf(answer)).toEqual({ code: 'NOT_FOUND', message: 'Project not found.' });
      expect(answer.data?.[field] ?? null).toBeNull();
    },
  );

  it('keeps projects apart: each user sees only their own copy of the same events', async () => {
    // The stranger sees their own copy of the same events, and the owner does not.
    const own = await world.gql(
      SERIES_QUERY('totalTransactions'),
      { projectId: world.foreign },
      world.stranger.token,
    );
    expect((dataOf(own).totalTransactions as { value: number }[])[0]?.value).toBe(7);
    const theirs = await world.gql(
      SERIES_QUERY('totalTransactions'),
      { projectId: world.main },
      world.stranger.token,
    );
    expect(errorOf(theirs).code).toBe('NOT_FOUND');
  });

  it('answers a project id that does not exist or is not an id like a foreign one', async () => {
    for (const projectId of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const answer = await world.gql(SERIES_QUERY('totalTransactions'), { projectId });
      expect(errorOf(answer).code).toBe('NOT_FOUND');
      expect(answer.data).toBeNull();
    }
  });

  it('requires a session; tolerates the X-API-KEY header next to it', async () => {
    const client = graphqlClient(world.test.app);
    const anonymous = await client(SERIES_QUERY('totalTransactions'), { projectId: world.main });
    expect(errorOf(anonymous).code).toBe('BAD_AUTHENTICATION');
    expect(anonymous.data).toBeNull();
    const forged = await client(
      SERIES_QUERY('totalTransactions'),
      { projectId: world.main },
      { token: 'a.b.c' },
    );
    expect(errorOf(forged).code).toBe('BAD_AUTHENTICATION');
    const withKey = await client(
      SERIES_QUERY('totalTransactions'),
      { projectId: world.main },
      { token: world.owner.token, headers: { 'x-api-key': 'pf_whatever-the-console-sends' } },
    );
    expect((dataOf(withKey).totalTransactions as { value: number }[])[0]?.value).toBe(7);
  });
});

describe('invalid input', () => {
  const series = (variables: Record<string, unknown>) =>
    world.gql(SERIES_QUERY('totalConnectedWallets'), { projectId: world.main, ...variables });

  it.each([
    [{ granularity: '1 day' }, /Invalid granularity "1 day"/],
    [{ granularity: '1mo' }, /Invalid granularity/],
    [{ granularity: '0s' }, /at least 1s/],
    [{ granularity: '', from: '2024-02-01', to: '2024-02-02' }, null],
    [{ from: 'last week' }, /Invalid from "last week"/],
    [{ to: '2024-02-30' }, /Invalid to "2024-02-30"/],
    [{ from: '2024-02-01T00:00:00' }, /with a zone/],
    [{ from: '2024-02-02', to: '2024-02-01' }, /from .* must be before to/],
    [{ from: '2024-02-01', to: '2024-02-01' }, /must be before/],
    [{ from: '2000-01-01', to: '2024-01-01', granularity: '1d' }, /8766 buckets; the limit is 5000/],
  ])('%j → BAD_USER_INPUT', async (variables, message) => {
    const answer = await series(variables);
    if (message === null) {
      // An empty granularity means "no granularity": one bucket.
      expect(dataOf(answer).totalConnectedWallets).toHaveLength(1);
      return;
    }
    expect(errorOf(answer)).toEqual({ code: 'BAD_USER_INPUT', message: expect.stringMatching(message) });
    expect(answer.data).toBeNull();
  });

  it('refuses bad limits, page sizes, cursors and transaction look-ups', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['query($p: ID!) { contractFunctions(projectId: $p, limit: 0) { calls } }', {}, /limit/],
      ['query($p: ID!) { countries(projectId: $p, limit: 251) { value } }', {}, /limit/],
      ['query($p: ID!) { transactionHistory(projectId: $p, first: 101) { nextCursor } }', {}, /first/],
      [
        'query($p: ID!) { transactionHistory(projectId: $p, after: "bm9wZQ") { nextCursor } }',
        {},
        /Invalid cursor/,
      ],
      [
        'query($p: ID!) { transactionHistory(projectId: $p, after: "!!") { nextCursor } }',
        {},
        /Invalid cursor/,
      ],
      ['query($p: ID!) { transaction(projectId: $p) { id } }', {}, /exactly one of hash and id/],
      ['query($p: ID!) { transaction(projectId: $p, hash: "0x1", id: "tx-1") { id } }', {}, /exactly one/],
      ['query($p: ID!) { averageGasPrice(projectId: $p, chainId: -1) { value } }', {}, /chainId/],
    ];
    for (const [query, variables, message] of cases) {
      const answer = await world.gql(query, { p: world.main, ...variables });
      expect(errorOf(answer), query).toEqual({
        code: 'BAD_USER_INPUT',
        message: expect.stringMatching(message),
      });
      expect(Object.values(answer.data ?? {}).filter((value) => value !== null)).toEqual([]);
    }
  });

  it('answers a wrongly typed variable as a GraphQL validation error, never a 500', async () => {
    const answer = await series({ from: 20240201 });
    expect(answer.status).toBeLessThan(500);
    expect(answer.errors?.length).toBeGreaterThan(0);
  });
});
