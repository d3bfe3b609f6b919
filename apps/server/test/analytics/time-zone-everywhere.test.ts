import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { LIFECYCLE, LIST, WALLET } from '../wallets/stage-queries.ts';
import { eventRow, txRows, W1, W2, W3 } from './events-fixture.ts';
import { dataOf, graphqlClient } from './graphql-client.ts';

/**
 * The wallet questions' days and "all time" in the project's time zone (docs/wallets.md, docs/timezone.md),
 * on both engines (`server` and `server-clickhouse`). Europe/Berlin in May 2024 is UTC+2: a local day
 * starts at 22:00 UTC the day before, so an event at 22:30 UTC belongs to the next local day.
 *
 * Lifecycle, as of the local day 2024-05-31 (range: local May):
 * - W1 (u1): first seen 2024-05-24 22:30 UTC = 25 May 00:30 local: 6 days old, New (in UTC 7 days: Active).
 * - W2 (u2): first seen 1 March, on 20 April; then 2024-05-17 22:30 UTC = 18 May local, 13 days back:
 *   Active (in UTC 14 days back: At risk).
 * - W3 (u3): first seen 10 January; then 2024-05-03 22:30 UTC = 4 May local, 27 days back, none in the 28
 *   days before: Resurrected (in UTC 28 days back: Churned).
 * One range length (31 local days) before, as of 30 April: W2 resurrected (20 April after 1 March), W3
 * churned, W1 not seen yet.
 *
 * Failed-transaction cost (another project, the same in a UTC twin): reverted receipts at 2024-05-24 22:40
 * UTC and 2024-05-25 21:30 UTC are both on 25 May local (one row), two UTC days.
 */
const ZONE = 'Europe/Berlin';
const MAY_LOCAL = { from: '2024-04-30T22:00:00.000Z', to: '2024-05-31T22:00:00.000Z' };
const MAY_UTC = { from: '2024-05-01T00:00:00.000Z', to: '2024-06-01T00:00:00.000Z' };
/** Asia/Kolkata is UTC+05:30: a local day starts at 18:30 UTC, half-way through a UTC hour. */
const KOLKATA = 'Asia/Kolkata';
const MAY_KOLKATA = { from: '2024-04-30T18:30:00.000Z', to: '2024-05-31T18:30:00.000Z' };

const COST = `query F($projectId: ID!, $from: DateTime, $to: DateTime) {
  failedTransactionCost(projectId: $projectId, from: $from, to: $to) {
    rows { day chainId reverted gasBurnedWei }
  }
}`;
const FUNNEL = `query A($projectId: ID!) { acquisitionFunnel(projectId: $projectId) { from } }`;
const SERIES = `query S($projectId: ID!, $timeZone: String) {
  customEventSeries(projectId: $projectId, name: "swap", timeZone: $timeZone) { day events }
}`;

const GWEI = 1_000_000_000n;
const reverted = (projectId: string, txId: string, requested: string, mined: string, gwei: bigint) =>
  txRows(projectId, {
    txId,
    user: 'u1',
    kind: 'contract',
    chainId: 1,
    hash: `0x${txId.replace(/\W/g, '').padEnd(64, 'a').slice(0, 64)}`,
    stages: [
      ['requested', requested],
      ['reverted', mined, { gas_used: 10_000n, effective_gas_price: gwei * GWEI, block_number: 1n }],
    ],
  });

describe('the project time zone in the wallet questions and all time', () => {
  const test = useTestApp('sqlite');
  let owner: SeededUser;
  const project: Record<'lifecycle' | 'lifecycleUtc' | 'lifecycleKolkata' | 'cost' | 'costUtc', string> = {
    lifecycle: '',
    lifecycleUtc: '',
    lifecycleKolkata: '',
    cost: '',
    costUtc: '',
  };

  beforeAll(async () => {
    // Today is the last hour of 31 May in Berlin (the wallet page's as-of day); all time ends now.
    test.clock.setTo(Date.parse('2024-05-31T21:00:00Z'));
    const api = apiClient(test.app);
    owner = await seed(test.services).user().verified();
    for (const key of Object.keys(project) as (keyof typeof project)[]) {
      const created = await api.post('projects', { token: owner.token, body: { name: key } });
      project[key] = created.json().id as string;
      if (!key.endsWith('Utc')) {
        const set = await api.patch(`projects/${project[key]}`, {
          token: owner.token,
          body: { timeZone: key === 'lifecycleKolkata' ? KOLKATA : ZONE },
        });
        expect(set.json().timeZone).toBe(key === 'lifecycleKolkata' ? KOLKATA : ZONE);
      }
    }
    const rows = [];
    for (const id of [project.lifecycle, project.lifecycleUtc]) {
      const connect = (at: string, user: 'u1' | 'u2' | 'u3') =>
        eventRow(id, at, user, 'wallet_connected', { withWallet: true });
      rows.push(
        connect('2024-05-24T22:30:00Z', 'u1'),
        connect('2024-03-01T10:00:00Z', 'u2'),
        connect('2024-04-20T10:00:00Z', 'u2'),
        connect('2024-05-17T22:30:00Z', 'u2'),
        connect('2024-01-10T10:00:00Z', 'u3'),
        connect('2024-05-03T22:30:00Z', 'u3'),
      );
    }
    // The same wallets in Kolkata, each local-day edge 15 minutes past the local midnight (18:45 UTC):
    // W1 first seen 25 May 00:15 local (24 May in UTC), W2 back on 18 May, W3 on 4 May local.
    const kolkata = (at: string, user: 'u1' | 'u2' | 'u3') =>
      eventRow(project.lifecycleKolkata, at, user, 'wallet_connected', { withWallet: true });
    rows.push(
      kolkata('2024-05-24T18:45:00Z', 'u1'),
      kolkata('2024-03-01T10:00:00Z', 'u2'),
      kolkata('2024-04-20T10:00:00Z', 'u2'),
      kolkata('2024-05-17T18:45:00Z', 'u2'),
      // 23:59 local on 17 May: the same wallet's quarter-hour before, another local day.
      kolkata('2024-05-17T18:29:00Z', 'u2'),
      kolkata('2024-01-10T10:00:00Z', 'u3'),
      kolkata('2024-05-03T18:45:00Z', 'u3'),
    );
    for (const id of [project.cost, project.costUtc]) {
      rows.push(
        eventRow(id, '2024-05-24T22:20:00Z', 'u1', 'custom', { event_name: 'swap' }),
        ...reverted(id, `tx-late-${id}`, '2024-05-24T22:30:00Z', '2024-05-24T22:40:00Z', 10n),
        ...reverted(id, `tx-next-${id}`, '2024-05-25T21:20:00Z', '2024-05-25T21:30:00Z', 20n),
      );
    }
    await storeRows(test.services.eventStore, rows);
  });

  afterAll(() => test.clock.reset());

  const gql = async (query: string, variables: Record<string, unknown>) =>
    dataOf(await graphqlClient(test.app)(query, variables, { token: owner.token }));

  it('counts lifecycle stages over local days, as of the local day, and one range length before', async () => {
    const answer = await gql(LIFECYCLE, { projectId: project.lifecycle, ...MAY_LOCAL });
    expect(answer.walletLifecycle).toEqual({
      current: {
        asOf: '2024-05-31',
        new: 1,
        resurrected: 1,
        power: 0,
        active: 1,
        atRisk: 0,
        churned: 0,
        powerThreshold: 2,
      },
      previous: {
        asOf: '2024-04-30',
        new: 0,
        resurrected: 1,
        power: 0,
        active: 0,
        atRisk: 0,
        churned: 1,
        powerThreshold: null,
      },
    });
  });

  it('counts lifecycle stages over the local days of a half-hour zone (Asia/Kolkata)', async () => {
    const answer = await gql(LIFECYCLE, { projectId: project.lifecycleKolkata, ...MAY_KOLKATA });
    const stages = answer.walletLifecycle as {
      current: Record<string, unknown>;
      previous: Record<string, unknown>;
    };
    // As in Berlin: W1 New, W2 Active (and 2 active days in the last 28: 17 and 18 May local), W3 Resurrected.
    expect(stages.current).toEqual({
      asOf: '2024-05-31',
      new: 1,
      resurrected: 1,
      power: 1,
      active: 0,
      atRisk: 0,
      churned: 0,
      powerThreshold: 2,
    });
    const list = (await gql(LIST, { projectId: project.lifecycleKolkata, ...MAY_KOLKATA })).wallets as {
      rows: { address: string; stage: string }[];
    };
    expect(list.rows).toEqual([
      { address: W3, stage: 'RESURRECTED' },
      { address: W2, stage: 'POWER' },
      { address: W1, stage: 'NEW' },
    ]);
  });

  it('keeps UTC days in a UTC project with the same events', async () => {
    const answer = await gql(LIFECYCLE, { projectId: project.lifecycleUtc, ...MAY_UTC });
    expect((answer.walletLifecycle as { current: unknown }).current).toEqual({
      asOf: '2024-05-31',
      new: 0,
      resurrected: 0,
      power: 0,
      active: 1,
      atRisk: 1,
      churned: 1,
      powerThreshold: 2,
    });
  });

  it('gives the Wallets list and the wallet page the same local-day stages', async () => {
    const answer = (await gql(LIST, { projectId: project.lifecycle, ...MAY_LOCAL })).wallets as {
      asOf: string;
      rows: { address: string; stage: string }[];
    };
    expect(answer.asOf).toBe('2024-05-31');
    // First seen first: W3 (January), W2 (March), W1 (May).
    expect(answer.rows).toEqual([
      { address: W3, stage: 'RESURRECTED' },
      { address: W2, stage: 'ACTIVE' },
      { address: W1, stage: 'NEW' },
    ]);
    // The page's stage is as of today: the clock's 31 May, 23:00 in Berlin.
    for (const row of answer.rows) {
      const page = await gql(WALLET, { projectId: project.lifecycle, address: row.address });
      expect((page.wallet as { stage: string }).stage).toBe(row.stage);
    }
    const utc = (await gql(LIST, { projectId: project.lifecycleUtc, ...MAY_UTC })).wallets as {
      rows: { address: string; stage: string }[];
    };
    expect(utc.rows.map((row) => row.stage)).toEqual(['CHURNED', 'AT_RISK', 'ACTIVE']);
  });

  it('numbers the failed-transaction cost by local day', async () => {
    const local = await gql(COST, { projectId: project.cost, ...MAY_LOCAL });
    expect(local.failedTransactionCost).toEqual({
      rows: [{ day: '2024-05-25', chainId: 1, reverted: 2, gasBurnedWei: '300000000000000' }],
    });
    const utc = await gql(COST, { projectId: project.costUtc, ...MAY_UTC });
    expect(utc.failedTransactionCost).toEqual({
      rows: [
        { day: '2024-05-25', chainId: 1, reverted: 1, gasBurnedWei: '200000000000000' },
        { day: '2024-05-24', chainId: 1, reverted: 1, gasBurnedWei: '100000000000000' },
      ],
    });
  });

  it("starts Acquisition's all time at the local midnight of the first event", async () => {
    const local = await gql(FUNNEL, { projectId: project.cost });
    expect((local.acquisitionFunnel as { from: string }).from).toBe('2024-05-24T22:00:00.000Z');
    const utc = await gql(FUNNEL, { projectId: project.costUtc });
    expect((utc.acquisitionFunnel as { from: string }).from).toBe('2024-05-24T00:00:00.000Z');
  });

  it("starts the Events series' all time at the local midnight of the first event", async () => {
    const answer = await gql(SERIES, { projectId: project.cost, timeZone: ZONE });
    const days = answer.customEventSeries as { day: string; events: number }[];
    expect(days[0]).toEqual({ day: '2024-05-25', events: 1 });
    const utc = await gql(SERIES, { projectId: project.costUtc, timeZone: 'UTC' });
    expect((utc.customEventSeries as { day: string; events: number }[])[0]).toEqual({
      day: '2024-05-24',
      events: 1,
    });
  });
});
