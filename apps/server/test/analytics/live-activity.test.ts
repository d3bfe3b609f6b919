import { beforeAll, describe, expect, it } from 'vitest';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { eventRow, W1, W2, W3 } from './events-fixture.ts';
import { dataOf, errorOf, graphqlClient } from './graphql-client.ts';

/** The Live screen's tiles (docs/live.md): the current minute and the 29 before it, counted by hand. */
const LIVE = `query Live($projectId: ID!) {
  liveActivity(projectId: $projectId) { from to activeUsers activeWallets eventsPerMinute { from to value } }
}`;
const MINUTE = 60_000;

const test = useTestApp('sqlite');
let owner: SeededUser;
let projectId: string;
// A fixed instant inside a minute: 2024-05-01T12:30:20Z; the window is 12:01:00 – 12:31:00.
const NOW = Date.parse('2024-05-01T12:30:20Z');
const at = (iso: string) => `2024-05-01T${iso}Z`;

beforeAll(async () => {
  test.clock.advance(NOW - Date.now());
  const seeded = await seed(test.services).user().verified().project('Live');
  owner = seeded.user;
  projectId = seeded.project.id;
  await storeRows(test.services.eventStore, [
    // Just before the window: not counted.
    eventRow(projectId, at('12:00:59.999'), 'u5', 'page_view'),
    // The window's first millisecond.
    eventRow(projectId, at('12:01:00.000'), 'u1', 'page_view'),
    eventRow(projectId, at('12:01:30'), 'u1', 'wallet_connected', { wallet_address: W1 }),
    eventRow(projectId, at('12:20:00'), 'u2', 'tx', { tx_id: 't', tx_stage: 'requested', tx_from: W2 }),
    eventRow(projectId, at('12:30:10'), 'u3', 'signature', { wallet_address: W3, sig_stage: 'signed' }),
    eventRow(projectId, at('12:30:15'), 'u3', 'error', { wallet_address: W3 }),
  ]);
});

describe('liveActivity', () => {
  it('counts users, wallets and events per minute of the last 30 minutes', async () => {
    const answer = dataOf(await graphqlClient(test.app)(LIVE, { projectId }, { token: owner.token }))
      .liveActivity as {
      from: string;
      to: string;
      activeUsers: number;
      activeWallets: number;
      eventsPerMinute: { from: string; to: string; value: number }[];
    };
    expect(answer.from).toBe('2024-05-01T12:01:00.000Z');
    expect(answer.to).toBe('2024-05-01T12:31:00.000Z');
    // u1, u2, u3 (u5 was a millisecond early).
    expect(answer.activeUsers).toBe(3);
    // W1 (connected), W2 (a transaction's sender), W3.
    expect(answer.activeWallets).toBe(3);
    expect(answer.eventsPerMinute).toHaveLength(30);
    expect(answer.eventsPerMinute[0]).toEqual({
      from: '2024-05-01T12:01:00.000Z',
      to: '2024-05-01T12:02:00.000Z',
      value: 2,
    });
    const values = answer.eventsPerMinute.map((bucket) => bucket.value);
    expect(values[19]).toBe(1); // 12:20
    expect(values[29]).toBe(2); // 12:30, the current minute
    expect(values.reduce((sum, value) => sum + value, 0)).toBe(5);
    expect(Date.parse(answer.eventsPerMinute[29]?.to ?? '') - Date.parse(answer.to)).toBe(0);
    expect(Date.parse(answer.to) - Date.parse(answer.from)).toBe(30 * MINUTE);
  });

  it('answers NOT_FOUND to another owner', async () => {
    const stranger = await seed(test.services).user().verified();
    const answer = await graphqlClient(test.app)(LIVE, { projectId }, { token: stranger.token });
    expect(errorOf(answer).code).toBe('NOT_FOUND');
  });
});
