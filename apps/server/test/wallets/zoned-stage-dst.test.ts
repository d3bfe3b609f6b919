import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventRow, W1, W2, W3, W4, W5 } from '../analytics/events-fixture.ts';
import { dataOf, graphqlClient } from '../analytics/graphql-client.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { LIFECYCLE, LIST, WALLET } from './stage-queries.ts';

/**
 * Zoned stages over a window with a change of the clocks (docs/wallets.md, "Lifecycle stages"), on both
 * engines: Europe/Berlin is UTC+1 until 2024-03-31T01:00Z, UTC+2 after, so local 31 March has 23 hours.
 * As of the local day A = 10 April (today: the clock's 10 April, 23:00 local), counting A as 0 days back:
 * 28 March is 13 days back, 14 March 27, 15 February 55 (the window's first day, from 2024-02-14T23:00Z).
 * - W1 (u1): first seen 2024-04-03T22:30Z = 4 April 00:30 local: 6 days old, New.
 * - W2 (u2): first seen 10 January; 2024-02-14T23:30Z = 15 February local (55 back: n_before 1) and
 *   2024-03-27T23:30Z = 28 March local (13 back): n28 = n14 = 1, Active.
 * - W3 (u3): first seen 5 January; 2024-03-13T23:30Z = 14 March local (27 back), none in the 28 days
 *   before: Resurrected.
 * - W4 (u4): first seen 1 February, 20 February (n_before 1); 2024-03-30T23:30Z and 2024-03-31T21:30Z, both
 *   31 March local (before and after the change), 2024-03-31T22:30Z = 1 April local, 2024-04-09T22:15Z =
 *   10 April local: n28 = n14 = 3.
 * - W5 (u6): first seen 2 February, 25 February (n_before 1); 5 and 6 April: n28 = n14 = 2.
 * Candidates W2, W4, W5 (n28 1, 3, 2): the ⌈3/10⌉ = 1st largest, threshold 3: W4 Power, W5 and W2 Active.
 * The range, local 25 March to 10 April (from 2024-03-24T23:00Z to 2024-04-10T22:00Z), holds the change
 * and sees W1, W2, W4 and W5, not W3.
 */
const ZONE = 'Europe/Berlin';
const RANGE = { from: '2024-03-24T23:00:00.000Z', to: '2024-04-10T22:00:00.000Z' };

describe('zoned stages over a change of the clocks', () => {
  const test = useTestApp('sqlite');
  let owner: SeededUser;
  let projectId = '';

  beforeAll(async () => {
    test.clock.setTo(Date.parse('2024-04-10T21:00:00Z'));
    const api = apiClient(test.app);
    owner = await seed(test.services).user().verified();
    projectId = (await api.post('projects', { token: owner.token, body: { name: 'dst' } })).json()
      .id as string;
    const set = await api.patch(`projects/${projectId}`, { token: owner.token, body: { timeZone: ZONE } });
    expect(set.json().timeZone).toBe(ZONE);
    const connect = (at: string, user: 'u1' | 'u2' | 'u3' | 'u4' | 'u6') =>
      eventRow(projectId, at, user, 'wallet_connected', { withWallet: true });
    await storeRows(test.services.eventStore, [
      connect('2024-04-03T22:30:00Z', 'u1'),
      connect('2024-01-10T10:00:00Z', 'u2'),
      connect('2024-02-14T23:30:00Z', 'u2'),
      connect('2024-03-27T23:30:00Z', 'u2'),
      connect('2024-01-05T10:00:00Z', 'u3'),
      connect('2024-03-13T23:30:00Z', 'u3'),
      connect('2024-02-01T10:00:00Z', 'u4'),
      connect('2024-02-20T10:00:00Z', 'u4'),
      connect('2024-03-30T23:30:00Z', 'u4'),
      connect('2024-03-31T21:30:00Z', 'u4'),
      connect('2024-03-31T22:30:00Z', 'u4'),
      connect('2024-04-09T22:15:00Z', 'u4'),
      connect('2024-02-02T10:00:00Z', 'u6'),
      connect('2024-02-25T10:00:00Z', 'u6'),
      connect('2024-04-05T10:00:00Z', 'u6'),
      connect('2024-04-06T10:00:00Z', 'u6'),
    ]);
  });

  afterAll(() => test.clock.reset());

  const gql = async (query: string, variables: Record<string, unknown>) =>
    dataOf(await graphqlClient(test.app)(query, variables, { token: owner.token }));

  it('counts the stages over local days, a 23-hour day one day', async () => {
    const answer = await gql(LIFECYCLE, { projectId, ...RANGE });
    expect((answer.walletLifecycle as { current: unknown }).current).toEqual({
      asOf: '2024-04-10',
      new: 1,
      resurrected: 1,
      power: 1,
      active: 2,
      atRisk: 0,
      churned: 0,
      powerThreshold: 3,
    });
  });

  it('gives the list and each wallet page the same stages', async () => {
    const list = (await gql(LIST, { projectId, ...RANGE })).wallets as {
      asOf: string;
      powerThreshold: number | null;
      rows: { address: string; stage: string }[];
    };
    expect(list.asOf).toBe('2024-04-10');
    expect(list.powerThreshold).toBe(3);
    expect(list.rows).toEqual([
      { address: W2, stage: 'ACTIVE' },
      { address: W4, stage: 'POWER' },
      { address: W5, stage: 'ACTIVE' },
      { address: W1, stage: 'NEW' },
    ]);
    const pages: Record<string, string> = {};
    for (const address of [W1, W2, W3, W4, W5]) {
      const page = await gql(WALLET, { projectId, address });
      pages[address] = (page.wallet as { stage: string }).stage;
    }
    expect(pages).toEqual({
      [W1]: 'NEW',
      [W2]: 'ACTIVE',
      [W3]: 'RESURRECTED',
      [W4]: 'POWER',
      [W5]: 'ACTIVE',
    });
  });
});
