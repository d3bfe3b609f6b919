import { IncidentListSchema } from '@polyflow/contracts/incidents';
import { describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '../analytics/graphql-client.ts';
import { RANGE, W1, W2, W5 } from './fixture.ts';
import { LIST_QUERY, useIncidentWorld } from './setup.ts';

const world = useIncidentWorld();

async function list(variables: Record<string, unknown> = {}, projectId = world.main) {
  const data = dataOf(await world.gql(LIST_QUERY, { projectId, ...RANGE, ...variables }));
  return IncidentListSchema.parse(data.incidents);
}
const namesOf = (rows: { id: string }[]) =>
  rows.map((row) => Object.entries(world.ids).find(([, id]) => id === row.id)?.[0] ?? row.id);

describe('incidents list', () => {
  it('groups errors into incidents with their figures, most recent first', async () => {
    const answer = await list();
    expect(answer).toMatchObject({
      from: '2024-03-01T00:00:00.000Z',
      to: '2024-03-08T00:00:00.000Z',
      totalIncidents: 5,
      // t1 reverted, t2 and t6 failed, among t1, t7, t9 submitted and t2, t6 failed (t8 rejected: not attempted).
      transactionFailRate: 3 / 5,
      // Severity is each incident's own, from its whole life (see severity.test.ts): A Mid, B High, C/D Low, E Mid.
      bySeverity: { low: 2, mid: 2, high: 1, severe: 0 },
      byStatus: { open: 5, resolved: 0, ignored: 0 },
      matching: 5,
      nextCursor: null,
    });
    expect(namesOf(answer.rows)).toEqual(['C', 'B', 'A', 'E', 'D']);
    const [c, b, a, e, d] = answer.rows;
    expect(a).toEqual({
      id: world.ids.A,
      type: 'window',
      title: "Uncaught TypeError: Cannot read properties of undefined (reading 'amount')",
      // Lifetime: 4 users (a0 too) of the 5 active from 02-20 to 03-05, no failed transaction: Mid.
      severity: 'mid',
      // The first occurrence ever (02-20), though the figures count the range only.
      firstSeen: '2024-02-20T10:00:00.000Z',
      lastSeen: '2024-03-05T09:01:00.000Z',
      occurrences: 3,
      affectedUsers: 3,
      affectedWallets: 2,
      activeDays: 3,
      // t1 reverted a minute after a1 and t2 failed 5 minutes later, but a page error is not a wallet's
      // refusal to send: neither is blamed on it.
      failedTransactions: 0,
      wallet: W2,
      code: null,
      method: null,
      status: 'open',
      isRegression: false,
      statusChangedAt: null,
      assignee: null,
    });
    expect(b).toEqual({
      id: world.ids.B,
      type: 'wallet',
      title: 'execution reverted',
      severity: 'high',
      firstSeen: '2024-03-02T10:05:00.000Z',
      lastSeen: '2024-03-06T14:00:00.000Z',
      occurrences: 2,
      affectedUsers: 1,
      affectedWallets: 1,
      activeDays: 2,
      failedTransactions: 2,
      wallet: W1,
      code: -32603,
      method: 'eth_sendTransaction',
      status: 'open',
      isRegression: false,
      statusChangedAt: null,
      assignee: null,
    });
    expect(c).toMatchObject({
      type: 'promise',
      severity: 'low',
      occurrences: 2,
      affectedUsers: 1,
      wallet: null,
    });
    expect(c?.title).toBe('Request to https://rpc.other.io/x?key=2 failed after 5000ms');
    expect(d).toMatchObject({
      type: 'window',
      severity: 'low',
      occurrences: 1,
      wallet: W5,
      failedTransactions: 0,
    });
    expect(e).toMatchObject({
      type: 'wallet',
      severity: 'mid',
      occurrences: 3,
      affectedUsers: 3,
      affectedWallets: 2,
      activeDays: 1,
      wallet: W5,
      code: 4100,
      method: 'wallet_switchEthereumChain',
    });
  });

  it("follows the range for the figures; severity stays the incident's own in every period", async () => {
    const answer = await list({ from: '2024-03-05', to: '2024-03-10' });
    expect(namesOf(answer.rows)).toEqual(['B', 'C', 'A']);
    // A is down to one occurrence (a3) and B swaps b1 for b3 (03-09); their severities do not move.
    expect(answer.rows.map((row) => [row.severity, row.occurrences])).toEqual([
      ['high', 2],
      ['low', 2],
      ['mid', 1],
    ]);
    expect(answer.bySeverity).toEqual({ low: 1, mid: 1, high: 1, severe: 0 });
    const week = await list();
    for (const row of answer.rows) {
      expect(week.rows.find((other) => other.id === row.id)?.severity).toBe(row.severity);
    }
  });

  it('covers the last 7 days by default', async () => {
    const { clock } = world.test;
    clock.advance(Date.parse('2024-03-08T00:00:00Z') - clock().getTime());
    try {
      // A session opened at the moved time: one issued "later" (at the real time) counts as from the future.
      const { token } = await world.test.services.sessions.issue({ ...world.owner, session_version: 0 });
      const data = dataOf(await world.gql(LIST_QUERY, { projectId: world.main }, token));
      const answer = IncidentListSchema.parse(data.incidents);
      // The test clock keeps ticking: "now" is a few milliseconds past 03-08.
      expect(Date.parse(answer.to) - Date.parse('2024-03-08T00:00:00Z')).toBeLessThan(5_000);
      expect(Date.parse(answer.to) - Date.parse(answer.from)).toBe(7 * 86_400_000);
      expect(answer.totalIncidents).toBe(5);
    } finally {
      clock.reset();
    }
  });

  it.each<[string, string, string[]]>([
    ['a whole wallet address', W1, ['B', 'A']],
    ['part of an address, any case', '0X2222', ['A', 'E']],
    ['message content', 'AMOUNT', ['A', 'D']],
    ['a host inside a message', 'rpc.example.com', ['C']],
    ['a stack frame', 'refundOrder', ['D']],
    ['the type label', 'wallet error', ['B', 'E']],
    ['the source', 'promise', ['C']],
    ['a method', 'switchEthereum', ['E']],
    ['an RPC code, exactly', '-32603', ['B']],
    ['another code', '4100', ['E']],
    ['% taken literally', '%', []],
    ['nothing', 'no-such-thing', []],
  ])('searches by %s', async (_name, search, expected) => {
    const answer = await list({ search });
    expect(namesOf(answer.rows)).toEqual(expected);
    expect(answer.matching).toBe(expected.length);
    // The summary describes the period, not the search.
    expect(answer.totalIncidents).toBe(5);
    expect(answer.bySeverity).toEqual({ low: 2, mid: 2, high: 1, severe: 0 });
  });

  it('searches by incident id and filters by severity', async () => {
    expect(namesOf((await list({ search: world.ids.E })).rows)).toEqual(['E']);
    expect(namesOf((await list({ severities: ['low'] })).rows)).toEqual(['C', 'D']);
    expect(namesOf((await list({ severities: ['severe', 'high'] })).rows)).toEqual(['B']);
    expect(namesOf((await list({ severities: ['mid'] })).rows)).toEqual(['A', 'E']);
    expect(namesOf((await list({ search: 'amount', severities: ['low'] })).rows)).toEqual(['D']);
  });

  it('pages with a cursor, never repeating or skipping a row', async () => {
    const first = await list({ first: 2 });
    expect(namesOf(first.rows)).toEqual(['C', 'B']);
    expect(first.matching).toBe(5);
    const second = await list({ first: 2, after: first.nextCursor });
    expect(namesOf(second.rows)).toEqual(['A', 'E']);
    const third = await list({ first: 2, after: second.nextCursor });
    expect(namesOf(third.rows)).toEqual(['D']);
    expect(third.nextCursor).toBeNull();
  });

  it('answers an empty list for a project without errors', async () => {
    expect(await list({}, world.empty)).toEqual({
      from: '2024-03-01T00:00:00.000Z',
      to: '2024-03-08T00:00:00.000Z',
      totalIncidents: 0,
      byStatus: { open: 0, resolved: 0, ignored: 0 },
      transactionFailRate: null,
      bySeverity: { low: 0, mid: 0, high: 0, severe: 0 },
      matching: 0,
      rows: [],
      nextCursor: null,
    });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a malformed cursor', { after: 'not a cursor!' }, /cursor/],
    ['a page of 0', { first: 0 }, /first/],
    ['a page of 101', { first: 101 }, /first/],
    ['a search over 200 characters', { search: 'x'.repeat(201) }, /search/],
    ['a malformed to', { to: '03/08/2024' }, /Invalid to/],
  ])('refuses %s with BAD_USER_INPUT', async (_name, variables, message) => {
    const answer = await world.gql(LIST_QUERY, { projectId: world.main, ...variables });
    expect(answer.status).toBe(400);
    expect(errorOf(answer).code).toBe('BAD_USER_INPUT');
    expect(errorOf(answer).message).toMatch(message);
    expect(answer.data ?? null).toBeNull();
  });
});
