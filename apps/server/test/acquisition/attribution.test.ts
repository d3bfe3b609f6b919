import { type AttributionRow, AttributionSchema } from '@polyflow/contracts/acquisition';
import { describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '../analytics/graphql-client.ts';
import { RANGE } from './fixture.ts';
import { ATTRIBUTION_QUERY, useAcquisitionWorld } from './setup.ts';

const world = useAcquisitionWorld();

async function attribution(variables: Record<string, unknown>, projectId = world.main) {
  const data = dataOf(await world.gql(ATTRIBUTION_QUERY, { projectId, ...RANGE, ...variables }));
  return AttributionSchema.parse(data.attribution);
}

/**
 * A row from its raw counts, rates derived: [new wallets, connects, txs, sessions, users, sessions with tx,
 * users with tx, sessions with connect, users with connect].
 */
function row(kind: AttributionRow['kind'], value: string | null, counts: number[]): AttributionRow {
  const [newWallets, connects, transactions, sessions, users, sTx, uTx, sConn, uConn] = counts as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const rate = (part: number, whole: number) => (whole > 0 ? part / whole : null);
  return {
    kind,
    value,
    newWallets,
    connects,
    transactions,
    sessions,
    users,
    sessionsWithTransaction: sTx,
    usersWithTransaction: uTx,
    sessionsWithConnect: sConn,
    usersWithConnect: uConn,
    transactionSessionRate: rate(sTx, sessions),
    transactionUserRate: rate(uTx, users),
    connectSessionRate: rate(sConn, sessions),
    connectUserRate: rate(uConn, users),
  };
}

// Sessions s1..s7 (fixture.ts): 7 sessions of 6 users; W1, W2, W5 first connected in the range (W6 before).
const TOTAL = row('total', null, [3, 5, 4, 7, 6, 3, 3, 5, 4]);

describe('attribution', () => {
  it('groups sessions by landing campaign: Total, values by sessions, Unattributed', async () => {
    const answer = await attribution({ dimension: 'campaign' });
    expect(answer.dimension).toBe('campaign');
    expect(answer.rows).toEqual([
      TOTAL,
      // s1, s2, s6: u1 (t1, t2), u2 (t3 rejected), u5 (t5); W1, W2, W5 are new.
      row('value', 'launch', [3, 3, 3, 3, 3, 2, 2, 3, 3]),
      // s4 (u3, nothing), s7 (u6 reconnects W6: a connect, not a new wallet).
      row('value', 'airdrop', [0, 1, 0, 2, 2, 0, 0, 1, 1]),
      // s3 (u2 reconnects W2, t4) and s5 (u4 browses).
      row('unattributed', null, [0, 1, 1, 2, 2, 1, 1, 1, 1]),
    ]);
  });

  it('counts a user once in Total though they came through two rows', async () => {
    const answer = await attribution({ dimension: 'campaign' });
    const sum = (field: 'users' | 'sessions') =>
      answer.rows.filter((r) => r.kind !== 'total').reduce((total, r) => total + r[field], 0);
    expect(sum('sessions')).toBe(TOTAL.sessions);
    expect(sum('users')).toBe(7); // u2 is in launch and in Unattributed
    expect(TOTAL.users).toBe(6);
  });

  it.each<[string, AttributionRow[]]>([
    [
      'source',
      [
        TOTAL,
        row('value', 'twitter', [2, 2, 3, 3, 3, 2, 2, 2, 2]),
        row('value', 'discord', [1, 1, 0, 1, 1, 0, 0, 1, 1]),
        row('unattributed', null, [0, 2, 1, 3, 3, 1, 1, 2, 2]),
      ],
    ],
    [
      // s5's medium is blank ("  "): unattributed.
      'medium',
      [
        TOTAL,
        row('value', 'social', [3, 3, 3, 3, 3, 2, 2, 3, 3]),
        row('unattributed', null, [0, 2, 1, 4, 4, 1, 1, 2, 2]),
      ],
    ],
    [
      'content',
      [
        TOTAL,
        row('value', 'banner-a', [1, 1, 1, 1, 1, 1, 1, 1, 1]),
        row('unattributed', null, [2, 4, 3, 6, 5, 2, 2, 4, 3]),
      ],
    ],
    [
      // Ties on sessions sort by value.
      'term',
      [
        TOTAL,
        row('value', 'defi', [1, 1, 2, 2, 2, 1, 1, 1, 1]),
        row('value', 'nft', [1, 1, 0, 1, 1, 0, 0, 1, 1]),
        row('unattributed', null, [1, 3, 2, 4, 4, 2, 2, 3, 3]),
      ],
    ],
  ])('switches the grouping to %s', async (dimension, expected) => {
    expect((await attribution({ dimension })).rows).toEqual(expected);
  });

  it('applies the filters to every row, Total included', async () => {
    const answer = await attribution({ dimension: 'campaign', filters: { countries: ['DE'] } });
    expect(answer.rows).toEqual([
      row('total', null, [2, 2, 3, 3, 3, 2, 2, 2, 2]),
      row('value', 'launch', [2, 2, 3, 2, 2, 2, 2, 2, 2]),
      row('unattributed', null, [0, 0, 0, 1, 1, 0, 0, 0, 0]),
    ]);
  });

  it('counts + Wallets only for wallets first connected in the range', async () => {
    // From 03-04: W2's first connection (03-02) is before the range, so s3's reconnect is not new; W5 is.
    const answer = await attribution({ dimension: 'campaign', from: '2024-03-04', to: '2024-03-08' });
    expect(answer.rows).toEqual([
      row('total', null, [1, 3, 2, 5, 5, 2, 2, 3, 3]),
      row('value', 'airdrop', [0, 1, 0, 2, 2, 0, 0, 1, 1]),
      row('value', 'launch', [1, 1, 1, 1, 1, 1, 1, 1, 1]),
      row('unattributed', null, [0, 1, 1, 2, 2, 1, 1, 1, 1]),
    ]);
  });

  it('always has Total and Unattributed, with null rates, for a project without events', async () => {
    const answer = await attribution({ dimension: 'source' }, world.empty);
    expect(answer.rows).toEqual([
      row('total', null, Array(9).fill(0)),
      row('unattributed', null, Array(9).fill(0)),
    ]);
  });

  it('refuses an unknown dimension', async () => {
    const answer = await world.gql(ATTRIBUTION_QUERY, { projectId: world.main, dimension: 'country' });
    expect(answer.status).toBe(400);
    expect(answer.data ?? null).toBeNull();
    expect(errorOf(answer).message).toMatch(/AttributionDimension/);
  });
});
