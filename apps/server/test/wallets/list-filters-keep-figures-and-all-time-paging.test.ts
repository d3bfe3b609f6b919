import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventRow, W1, W2, W3 } from '../analytics/events-fixture.ts';
import { dataOf, graphqlClient } from '../analytics/graphql-client.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';

/**
 * The Wallets list (docs/wallets.md, "The Wallets list"), on both engines:
 * - its chain and country filters keep a wallet with such an event in the range, and leave its figures
 *   alone: last seen is its latest event in the range on any chain, from anywhere (it was the latest event
 *   on that chain / from that country);
 * - over all time (no from, no to: the range ends at now, which moves) a page's nextCursor opens the next
 *   page (it was refused as another query's cursor once the clock had moved).
 * UTC project; the range 2024-04-01T06:00Z to 2024-04-08T06:00Z has partial UTC days at both ends.
 * - W1 (u1, DE): chain 1 at 04-01T08:00Z (partial day), chain 137 at 04-05T10:00Z, chain 137 from JP at
 *   04-07T10:00Z: last seen 04-07T10:00Z whatever the filter.
 * - W2 (u2, US): chain 1 at 04-03T10:00Z. W3 (u3, US): chain 137 at 04-04T10:00Z.
 */
const RANGE = { from: '2024-04-01T06:00:00.000Z', to: '2024-04-08T06:00:00.000Z' };
const LIST = `query List($projectId: ID!, $from: DateTime, $to: DateTime, $chainId: ChainId, $country: String,
  $first: Int, $after: String) {
  wallets(projectId: $projectId, from: $from, to: $to, chainId: $chainId, country: $country, first: $first,
    after: $after) {
    rows { address lastSeen }
    nextCursor
  }
}`;
type Page = { rows: { address: string; lastSeen: string }[]; nextCursor: string | null };

describe('the Wallets list: filters keep the figures, all-time pages follow', () => {
  const test = useTestApp('sqlite');
  let owner: SeededUser;
  let projectId = '';

  beforeAll(async () => {
    test.clock.setTo(Date.parse('2024-04-10T12:00:00Z'));
    const api = apiClient(test.app);
    owner = await seed(test.services).user().verified();
    projectId = (await api.post('projects', { token: owner.token, body: { name: 'list' } })).json()
      .id as string;
    const connect = (at: string, user: 'u1' | 'u2' | 'u3', chain: number, country?: string) =>
      eventRow(projectId, at, user, 'wallet_connected', {
        withWallet: true,
        chain_id: chain,
        ...(country && { country }),
      });
    await storeRows(test.services.eventStore, [
      connect('2024-04-01T08:00:00Z', 'u1', 1),
      connect('2024-04-05T10:00:00Z', 'u1', 137),
      connect('2024-04-07T10:00:00Z', 'u1', 137, 'JP'),
      connect('2024-04-03T10:00:00Z', 'u2', 1),
      connect('2024-04-04T10:00:00Z', 'u3', 137),
    ]);
  });

  afterAll(() => test.clock.reset());

  const list = async (variables: Record<string, unknown>) =>
    dataOf(await graphqlClient(test.app)(LIST, { projectId, ...variables }, { token: owner.token }))
      .wallets as Page;

  it.each([
    ['chain 1', { chainId: 1 }, [W1, W2]],
    ['country DE', { country: 'DE' }, [W1]],
    ['chain 1 from DE', { chainId: 1, country: 'DE' }, [W1]],
    ['chain 137 from DE', { chainId: 137, country: 'DE' }, [W1]],
    ['chain 137', { chainId: 137 }, [W1, W3]],
  ])(
    '%s: last seen is the latest event in the range, on any chain, from anywhere',
    async (_, filter, wallets) => {
      const page = await list({ ...RANGE, ...filter });
      expect(page.rows.map((row) => row.address)).toEqual(wallets);
      expect(page.rows[0]).toEqual({ address: W1, lastSeen: '2024-04-07T10:00:00.000Z' });
    },
  );

  it('keeps out a wallet with no event on the chain in the range, or none on the chain from the country', async () => {
    expect((await list({ ...RANGE, chainId: 8453 })).rows).toEqual([]);
    // W1 has an event on chain 1 (from DE) and one from JP (on chain 137), none on chain 1 from JP.
    expect((await list({ ...RANGE, chainId: 1, country: 'JP' })).rows).toEqual([]);
    expect((await list({ ...RANGE, chainId: 137, country: 'JP' })).rows.map((row) => row.address)).toEqual([
      W1,
    ]);
  });

  it('pages over all time after the clock moved', async () => {
    test.clock.setTo(Date.parse('2024-04-10T12:00:00Z'));
    const first = await list({ first: 2 });
    expect(first.rows.map((row) => row.address)).toEqual([W1, W3]);
    expect(first.nextCursor).not.toBeNull();
    test.clock.setTo(Date.parse('2024-04-10T12:01:00Z'));
    const next = await list({ first: 2, after: first.nextCursor });
    expect(next).toEqual({ rows: [{ address: W2, lastSeen: '2024-04-03T10:00:00.000Z' }], nextCursor: null });
  });
});
