import { IncidentDetailSchema } from '@polyflow/contracts/incidents';
import { describe, expect, it } from 'vitest';
import { dataOf, errorOf, graphqlClient } from '../analytics/graphql-client.ts';
import { RANGE, W1, W2 } from './fixture.ts';
import { DETAIL_QUERY, FINGERPRINTS, LIST_QUERY, useIncidentWorld } from './setup.ts';

const world = useIncidentWorld();

async function detail(id: string, variables: Record<string, unknown> = RANGE, projectId = world.main) {
  const data = dataOf(await world.gql(DETAIL_QUERY, { projectId, id, ...variables }));
  return data.incident === null ? null : IncidentDetailSchema.parse(data.incident);
}

describe('incident detail', () => {
  it('shows the latest occurrence with the wallet state as stored and the session trail', async () => {
    const answer = await detail(world.ids.B);
    expect(answer).toMatchObject({
      id: world.ids.B,
      type: 'wallet',
      severity: 'high',
      occurrences: 2,
      failedTransactions: 2,
      wallet: W1,
      from: '2024-03-01T00:00:00.000Z',
      to: '2024-03-08T00:00:00.000Z',
      fingerprint: FINGERPRINTS.B,
    });
    // Its whole life, apart from the period's figures: b1 to b3 (03-09, after the range), and the 5 users
    // active from 03-02 to 03-09 (u1 to u5) as the denominator of its reach.
    expect(answer?.lifetime).toEqual({
      firstSeen: '2024-03-02T10:05:00.000Z',
      lastSeen: '2024-03-09T10:00:00.000Z',
      occurrences: 3,
      affectedUsers: 1,
      affectedWallets: 1,
      activeDays: 3,
      failedTransactions: 2,
      activeUsers: 5,
      reach: 0.2,
    });
    expect(answer?.latest).toMatchObject({
      time: '2024-03-06T14:00:00.000Z',
      userId: 'u1',
      wallet: W1,
      message: 'execution reverted',
      stack: null,
      code: -32603,
      method: 'eth_sendTransaction',
      path: '/swap',
      browser: 'Chrome',
      os: 'Linux',
      country: 'DE',
      walletState: {
        gasBalanceWei: '137500000000000000000',
        gasBalance: '137.5 POL',
        symbol: 'POL',
        nonce: '12',
        chainId: 137,
        network: 'Polygon',
        walletProvider: 'MetaMask',
      },
    });
    expect(answer?.latest.trail).toEqual([
      { time: '2024-03-06T13:58:00.000Z', type: 'page_view', description: 'Viewed /swap "Swap"' },
      {
        time: '2024-03-06T13:58:30.000Z',
        type: 'wallet_connected',
        description: 'Connected 0x1111…1111 (MetaMask)',
      },
      { time: '2024-03-06T13:59:00.000Z', type: 'chain_changed', description: 'Switched to Polygon (137)' },
      {
        time: '2024-03-06T13:59:50.000Z',
        type: 'tx',
        description: 'Contract call to 0xc0c0…c0c0 (0xa9059cbb) requested',
      },
      {
        time: '2024-03-06T13:59:59.000Z',
        type: 'tx',
        description: 'Contract call to 0xc0c0…c0c0 (0xa9059cbb) failed to send: -32603 execution reverted',
      },
    ]);
  });

  it('agrees with the list row over the same range', async () => {
    const list = dataOf(await world.gql(LIST_QUERY, { projectId: world.main, ...RANGE })).incidents as {
      rows: Record<string, unknown>[];
    };
    for (const row of list.rows) {
      const answer = await detail(String(row.id));
      const { from: _from, to: _to, fingerprint: _f, latest: _l, lifetime: _life, ...figures } = answer ?? {};
      expect(figures).toEqual(row);
    }
  });

  it('covers all time without a range', async () => {
    const answer = await detail(world.ids.B, {});
    // b3 (03-09) is now the latest: on Ethereum, without a balance read, and alone in its session.
    expect(answer).toMatchObject({
      occurrences: 3,
      activeDays: 3,
      // The same severity as over the week: it is the incident's own.
      severity: 'high',
      title: 'Internal JSON-RPC error.',
    });
    expect(answer?.latest).toMatchObject({ time: '2024-03-09T10:00:00.000Z', trail: [] });
    expect(answer?.latest.walletState).toEqual({
      gasBalanceWei: null,
      gasBalance: null,
      symbol: 'ETH',
      nonce: null,
      chainId: 1,
      network: 'Ethereum',
      walletProvider: 'MetaMask',
    });
  });

  it('shows a frontend error with its stack; the row wallet is the last one affected', async () => {
    const answer = await detail(world.ids.A);
    expect(answer?.fingerprint).toBe(FINGERPRINTS.A);
    expect(answer?.wallet).toBe(W2);
    expect(answer?.latest).toMatchObject({
      time: '2024-03-05T09:01:00.000Z',
      userId: 'u3',
      wallet: null,
      path: '/swap',
      walletState: { gasBalance: null, network: null, walletProvider: null },
    });
    expect(answer?.latest.stack).toContain(
      'at submitSwap (https://app.example.com/assets/index-Zz9YxW8v.js:41:123)',
    );
    expect(answer?.latest.trail.map((event) => event.description)).toEqual([
      'Viewed /pools',
      'Contract call to 0xc0c0…c0c0 (0xa9059cbb) requested',
      'Contract call to 0xc0c0…c0c0 (0xa9059cbb) rejected by the user: 4001 User rejected the request.',
    ]);
  });

  it('answers null for an incident with no occurrence in the range or of another project', async () => {
    expect(await detail(world.ids.C, { from: '2024-03-01', to: '2024-03-02' })).toBeNull();
    expect(await detail('inc_000000000000000000000000')).toBeNull();
  });

  it("answers NOT_FOUND and no data for another user's project, and requires a session", async () => {
    const foreign = await world.gql(DETAIL_QUERY, { projectId: world.foreign, id: world.ids.A });
    expect(errorOf(foreign)).toEqual({ code: 'NOT_FOUND', message: 'Project not found.' });
    // The field is nullable, so GraphQL answers data: { incident: null } beside the error.
    expect(foreign.data?.incident ?? null).toBeNull();
    const anonymous = await graphqlClient(world.test.app)(DETAIL_QUERY, {
      projectId: world.main,
      id: world.ids.A,
    });
    expect(errorOf(anonymous).code).toBe('BAD_AUTHENTICATION');
    const list = await world.gql(LIST_QUERY, { projectId: world.foreign, ...RANGE });
    expect(errorOf(list).code).toBe('NOT_FOUND');
    expect(list.data ?? null).toBeNull();
  });

  it('keeps ids per project: the same fault in another project has another id', async () => {
    const theirs = dataOf(
      await world.gql(LIST_QUERY, { projectId: world.foreign, ...RANGE }, world.stranger.token),
    ).incidents as { rows: { id: string }[] };
    expect(theirs.rows).toHaveLength(5);
    for (const row of theirs.rows) expect(Object.values(world.ids)).not.toContain(row.id);
    // And the owner cannot open the stranger's incident through their own project.
    expect(await detail(theirs.rows[0]?.id ?? '')).toBeNull();
  });

  it('refuses a malformed id', async () => {
    const answer = await world.gql(DETAIL_QUERY, { projectId: world.main, id: "x' OR 1=1 --" });
    expect(errorOf(answer).code).toBe('BAD_USER_INPUT');
    expect(answer.data?.incident ?? null).toBeNull();
  });
});
