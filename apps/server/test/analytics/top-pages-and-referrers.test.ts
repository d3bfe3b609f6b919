import { beforeAll, describe, expect, it } from 'vitest';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { eventRow, W1, W2, W4, W5 } from './events-fixture.ts';
import { dataOf, errorOf, graphqlClient } from './graphql-client.ts';

/**
 * Top pages and referrers (docs/analytics.md, "Top pages and referrers"), from a hand-built day: every
 * expected figure below is counted by hand from these rows. Range: 2024-03-01 (UTC).
 *
 * s1 u1 from www.Google.com: / → /swap, connects W1 on /swap, starts tx-a on /swap (later stages on /pool)
 * s2 u2 from twitter.com: /pool, connects W2 and starts tx-b there, then /swap and starts tx-c there
 * s3 u3 direct: / (no referrer), then /swap with the dapp's own host as referrer
 * s4 u1 from google.com again: /, connects W1 on /
 * s5 u4 from news.ycombinator.com: /swap at Feb 29 23:59 (before the range), starts tx-d there; /pool at
 *    Mar 1 00:01 and connects W4 on /pool
 * s6 u6 connects W5 on /swap with no page view in the range
 * s7 u5 from reddit.com: /swap at Mar 2 00:00:00.000, the range's excluded end
 */
function dayRows(projectId: string): EventRow[] {
  const at = (
    time: string,
    user: 'u1' | 'u2' | 'u3' | 'u4' | 'u5' | 'u6',
    session: string,
    type: string,
    path: string,
    extra: Partial<EventRow> = {},
  ) => eventRow(projectId, time, user, type, { session_id: session, path, ...extra });
  const view = (
    time: string,
    user: 'u1' | 'u2' | 'u3' | 'u4' | 'u5',
    session: string,
    path: string,
    referrer: string | null,
  ) => at(time, user, session, 'page_view', path, { referrer });
  const connect = (
    time: string,
    user: 'u1' | 'u2' | 'u4' | 'u6',
    session: string,
    path: string,
    wallet: string,
  ) => at(time, user, session, 'wallet_connected', path, { wallet_address: wallet });
  const tx = (
    time: string,
    user: 'u1' | 'u2' | 'u4',
    session: string,
    path: string,
    txId: string,
    stage: string,
  ) => at(time, user, session, 'tx', path, { tx_id: txId, tx_stage: stage, tx_kind: 'coin' });
  const google = 'https://www.Google.com/search?q=polyflow';
  const twitter = 'https://twitter.com/polyflow/status/1';
  const hn = 'https://news.ycombinator.com/item?id=1';
  return [
    view('2024-03-01T10:00:00Z', 'u1', 's1', '/', google),
    view('2024-03-01T10:01:00Z', 'u1', 's1', '/swap', google),
    connect('2024-03-01T10:02:00Z', 'u1', 's1', '/swap', W1),
    tx('2024-03-01T10:03:00Z', 'u1', 's1', '/swap', 'tx-a', 'requested'),
    tx('2024-03-01T10:03:05Z', 'u1', 's1', '/pool', 'tx-a', 'submitted'),
    tx('2024-03-01T10:04:00Z', 'u1', 's1', '/pool', 'tx-a', 'confirmed'),

    view('2024-03-01T11:00:00Z', 'u2', 's2', '/pool', twitter),
    connect('2024-03-01T11:01:00Z', 'u2', 's2', '/pool', W2),
    tx('2024-03-01T11:02:00Z', 'u2', 's2', '/pool', 'tx-b', 'requested'),
    view('2024-03-01T11:04:00Z', 'u2', 's2', '/swap', twitter),
    tx('2024-03-01T11:05:00Z', 'u2', 's2', '/swap', 'tx-c', 'requested'),
    tx('2024-03-01T11:05:09Z', 'u2', 's2', '/swap', 'tx-c', 'rejected'),

    view('2024-03-01T12:00:00Z', 'u3', 's3', '/', null),
    view('2024-03-01T12:01:00Z', 'u3', 's3', '/swap', 'https://app.example.com/'),

    view('2024-03-01T15:00:00Z', 'u1', 's4', '/', 'https://google.com/'),
    connect('2024-03-01T15:01:00Z', 'u1', 's4', '/', W1),

    view('2024-02-29T23:59:00Z', 'u4', 's5', '/swap', hn),
    tx('2024-02-29T23:59:30Z', 'u4', 's5', '/swap', 'tx-d', 'requested'),
    tx('2024-03-01T00:00:30Z', 'u4', 's5', '/swap', 'tx-d', 'submitted'),
    view('2024-03-01T00:01:00Z', 'u4', 's5', '/pool', hn),
    connect('2024-03-01T00:02:00Z', 'u4', 's5', '/pool', W4),

    connect('2024-03-01T13:00:00Z', 'u6', 's6', '/swap', W5),

    view('2024-03-02T00:00:00.000Z', 'u5', 's7', '/swap', 'https://reddit.com/r/ethereum'),
  ];
}

const PAGES = `query Pages($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int) {
  topPages(projectId: $projectId, from: $from, to: $to, limit: $limit) { path users wallets transactions }
}`;
const REFERRERS = `query Referrers($projectId: ID!, $from: DateTime, $to: DateTime, $limit: Int) {
  topReferrers(projectId: $projectId, from: $from, to: $to, limit: $limit) { domain users wallets transactions }
}`;
const MARCH_1 = { from: '2024-03-01T00:00:00Z', to: '2024-03-02T00:00:00Z' };
const FEB_29 = { from: '2024-02-29T00:00:00Z', to: '2024-03-01T00:00:00Z' };

const test = useTestApp('sqlite');
let owner: SeededUser;
let stranger: SeededUser;
let projectId: string;
const ask = async (query: string, variables: Record<string, unknown>, token = owner.token) =>
  graphqlClient(test.app)(query, { projectId, ...variables }, { token });

beforeAll(async () => {
  const seeded = await seed(test.services).user().verified().project('Pages');
  owner = seeded.user;
  projectId = seeded.project.id;
  stranger = await seed(test.services).user().verified();
  const { project: foreign } = await seed(test.services).user().verified().project('Foreign');
  await storeRows(test.services.eventStore, [...dayRows(projectId), ...dayRows(foreign.id)]);
});

describe('topPages', () => {
  it('counts users who viewed, wallets connected and transactions started on each path', async () => {
    expect(dataOf(await ask(PAGES, MARCH_1)).topPages).toEqual([
      // Viewed by u1 (s1), u2, u3; W1 (s1) and W5 (no page view needed) connected here; tx-a and tx-c
      // started here (tx-d too, but on Feb 29: a transaction belongs to its first stage's time).
      { path: '/swap', users: 3, wallets: 2, transactions: 2 },
      // u2 and u4 (whose earlier /swap view was on Feb 29); W2 and W4; tx-b. tx-a's later stages do not count.
      { path: '/pool', users: 2, wallets: 2, transactions: 1 },
      // u1 twice (s1, s4) and u3; W1 in s4.
      { path: '/', users: 2, wallets: 1, transactions: 0 },
    ]);
  });

  it('applies the period and the limit', async () => {
    expect(dataOf(await ask(PAGES, FEB_29)).topPages).toEqual([
      { path: '/swap', users: 1, wallets: 0, transactions: 1 },
    ]);
    expect(dataOf(await ask(PAGES, { ...MARCH_1, limit: 1 })).topPages).toEqual([
      { path: '/swap', users: 3, wallets: 2, transactions: 2 },
    ]);
  });
});

describe('topReferrers', () => {
  it("attributes each session to its first page view's referrer domain", async () => {
    expect(dataOf(await ask(REFERRERS, MARCH_1)).topReferrers).toEqual([
      // s2: u2, W2, tx-b and tx-c.
      { domain: 'twitter.com', users: 1, wallets: 1, transactions: 2 },
      // s1 and s4 (www. dropped, lower case): u1 once, W1 once, tx-a.
      { domain: 'google.com', users: 1, wallets: 1, transactions: 1 },
      // s5's first page view in the range (/pool at 00:01): u4, W4; tx-d started on Feb 29.
      { domain: 'news.ycombinator.com', users: 1, wallets: 1, transactions: 0 },
      // s3: no referrer on its first page view (its second came from the dapp's own host). W5's session
      // s6 had no page view and belongs to no row.
      { domain: null, users: 1, wallets: 0, transactions: 0 },
    ]);
  });

  it('applies the period and the limit', async () => {
    expect(dataOf(await ask(REFERRERS, FEB_29)).topReferrers).toEqual([
      { domain: 'news.ycombinator.com', users: 1, wallets: 0, transactions: 1 },
    ]);
    expect(dataOf(await ask(REFERRERS, { ...MARCH_1, limit: 2 })).topReferrers).toHaveLength(2);
  });

  it('keeps a session direct when its first page view is, whatever referrer a later one has', async () => {
    const { user, project } = await seed(test.services).user().verified().project('Direct first');
    const view = (time: string, referrer: string | null) =>
      eventRow(project.id, time, 'u1', 'page_view', { session_id: 's1', path: '/', referrer });
    await storeRows(test.services.eventStore, [
      view('2024-03-01T10:00:00Z', null),
      view('2024-03-01T10:01:00Z', 'https://bing.com/search?q=polyflow'),
    ]);
    const answer = await graphqlClient(test.app)(
      REFERRERS,
      { projectId: project.id, ...MARCH_1 },
      { token: user.token },
    );
    expect(dataOf(answer).topReferrers).toEqual([{ domain: null, users: 1, wallets: 0, transactions: 0 }]);
  });
});

describe('access and input', () => {
  it('answers NOT_FOUND for a project of another owner, BAD_USER_INPUT for a bad limit', async () => {
    for (const query of [PAGES, REFERRERS]) {
      const foreign = await ask(query, MARCH_1, stranger.token);
      expect(errorOf(foreign).code).toBe('NOT_FOUND');
      expect(foreign.data).toBeNull();
      expect(errorOf(await ask(query, { ...MARCH_1, limit: 0 })).code).toBe('BAD_USER_INPUT');
      expect(errorOf(await ask(query, { ...MARCH_1, limit: 101 })).code).toBe('BAD_USER_INPUT');
      expect(errorOf(await ask(query, { from: 'yesterday' })).code).toBe('BAD_USER_INPUT');
    }
  });
});
