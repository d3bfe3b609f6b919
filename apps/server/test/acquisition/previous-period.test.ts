import { AcquisitionFunnelSchema } from '@polyflow/contracts/acquisition';
import { describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '../analytics/graphql-client.ts';
import { useAcquisitionWorld } from './setup.ts';

/**
 * The funnel and the attribution table over the previous period (`previous: true`, docs/analytics.md
 * "The previous period"); figures derived by hand from fixture.ts.
 */
const world = useAcquisitionWorld();

const FUNNEL = `
  query Funnel($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AcquisitionFilters, $previous: Boolean) {
    acquisitionFunnel(projectId: $projectId, from: $from, to: $to, filters: $filters, previous: $previous) {
      from to steps { key label users share }
    }
  }`;

const ATTRIBUTION = `
  query Attribution($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AcquisitionFilters, $previous: Boolean) {
    attribution(projectId: $projectId, dimension: campaign, from: $from, to: $to, filters: $filters, previous: $previous) {
      dimension from to
      rows { kind value sessions users sessionsWithTransaction transactionSessionRate connectUserRate }
    }
  }`;

async function funnel(variables: Record<string, unknown>, token?: string) {
  const answer = await world.gql(FUNNEL, { projectId: world.main, ...variables }, token);
  return AcquisitionFunnelSchema.parse(dataOf(answer).acquisitionFunnel);
}

async function attribution(variables: Record<string, unknown>, token?: string) {
  const answer = await world.gql(ATTRIBUTION, { projectId: world.main, ...variables }, token);
  // Only some of the row's fields are asked for: the contract's schema would want them all.
  return dataOf(answer).attribution as { from: string; to: string; rows: Record<string, unknown>[] };
}

const usersOf = (answer: { steps: { users: number }[] }) => answer.steps.map((step) => step.users);

describe('acquisitionFunnel(previous: true)', () => {
  it('counts the funnel of the period of equal length before the range', async () => {
    // [Mar 4, Mar 8) → [Feb 29, Mar 4): sessions s1 (u1) and s2 (u2).
    const previous = await funnel({ from: '2024-03-04', to: '2024-03-08', previous: true });
    expect(previous.from).toBe('2024-02-29T00:00:00.000Z');
    expect(previous.to).toBe('2024-03-04T00:00:00.000Z');
    // Users, Wallets (u1 MetaMask, u2 Rabby), Connected (W1, W2), ≥1 TX (u1; u2's t3 was rejected),
    // ≥2 TXs (u1: t1 and t2), Signed (u1).
    expect(usersOf(previous)).toEqual([2, 2, 2, 1, 1, 1]);
    expect(previous.steps.map((step) => step.share)).toEqual([1, 1, 1, 0.5, 0.5, 0.5]);
    expect(await funnel({ from: '2024-02-29', to: '2024-03-04' })).toEqual(previous);
  });

  it('applies the filters to the previous period too', async () => {
    const previous = await funnel({
      from: '2024-03-04',
      to: '2024-03-08',
      previous: true,
      filters: { countries: ['US'] },
    });
    expect(usersOf(previous)).toEqual([1, 1, 1, 0, 0, 0]);
  });

  it('compares today until now with yesterday until the same time (fixed clock, Mar 6 12:00)', async () => {
    const { clock } = world.test;
    clock.advance(Date.parse('2024-03-06T12:00:00Z') - clock().getTime());
    try {
      const { token } = await world.test.services.sessions.issue({ ...world.owner, session_version: 0 });
      const today = { from: '2024-03-06', to: '2024-03-07', previous: true };
      const previous = await funnel(today, token);
      expect(previous.from).toBe('2024-03-05T00:00:00.000Z');
      const cutGap = Date.parse(previous.to) - Date.parse('2024-03-05T12:00:00Z');
      expect(cutGap >= 0 && cutGap < 5_000).toBe(true);
      // Mar 5 before noon: u3 (s4 at 08:00, detects Coinbase Wallet, rejects a signature); u4's s5 is at 20:00.
      expect(usersOf(previous)).toEqual([1, 1, 0, 0, 0, 0]);
      // The whole of Mar 5 has both.
      expect(usersOf(await funnel({ from: '2024-03-05', to: '2024-03-06' }, token))[0]).toBe(2);

      const rows = (await attribution(today, token)).rows;
      expect(rows).toEqual([
        expect.objectContaining({ kind: 'total', sessions: 1, users: 1 }),
        expect.objectContaining({ kind: 'value', value: 'airdrop', sessions: 1, transactionSessionRate: 0 }),
        expect.objectContaining({ kind: 'unattributed', sessions: 0, transactionSessionRate: null }),
      ]);
    } finally {
      clock.reset();
    }
  });
});

describe('attribution(previous: true)', () => {
  it('answers the rows of the previous period, with their conversion', async () => {
    const previous = await attribution({ from: '2024-03-04', to: '2024-03-08', previous: true });
    expect(previous.from).toBe('2024-02-29T00:00:00.000Z');
    expect(previous.rows).toEqual([
      // s1 and s2, both landing with campaign "launch"; s1 submitted t1 and t2.
      {
        kind: 'total',
        value: null,
        sessions: 2,
        users: 2,
        sessionsWithTransaction: 1,
        transactionSessionRate: 0.5,
        connectUserRate: 1,
      },
      {
        kind: 'value',
        value: 'launch',
        sessions: 2,
        users: 2,
        sessionsWithTransaction: 1,
        transactionSessionRate: 0.5,
        connectUserRate: 1,
      },
      {
        kind: 'unattributed',
        value: null,
        sessions: 0,
        users: 0,
        sessionsWithTransaction: 0,
        transactionSessionRate: null,
        connectUserRate: null,
      },
    ]);
  });

  it('answers NOT_FOUND for another owner’s project', async () => {
    const answer = await world.gql(ATTRIBUTION, { projectId: world.foreign, previous: true });
    expect(errorOf(answer).code).toBe('NOT_FOUND');
  });
});
