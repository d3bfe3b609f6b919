import { localDaysIn, startOfLocalDay } from '@polyflow/contracts/time-zone';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_LOCAL_DAY_RUN_DAYS } from '../../src/reading/time-range.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { eventRow, txRows } from './events-fixture.ts';
import { dataOf, graphqlClient } from './graphql-client.ts';

/**
 * The per-day averages in the project's time zone (docs/analytics.md, docs/timezone.md): Daily Active
 * Wallets and Average TX/User/Day count the distinct wallets and users of each local day, a 23- and a
 * 25-hour day one day each. Each case spans three local days around a change (or Kolkata's +05:30):
 * u1 (W1) acts in the last millisecond of day 0 and the first of day 1, u2 (W2) in the last millisecond
 * of day 1 and the first of day 2, and u1 sends one transaction in day 1. Local days: W1 on days 0 and 1,
 * W2 on days 1 and 2: 4 wallet-days and 4 user-days over 3 days. Counted by UTC day, each pair of events
 * falls in one UTC day: 2 wallet-days over the 4 UTC days the range touches; a UTC project with the same
 * events and range keeps that answer. The same events make daily retention cohorts (docs/wallets.md) of
 * local days: W1 in day 0's cohort back on day 1, W2 in day 1's cohort back on day 2. Both engines
 * (`server` and `server-clickhouse`).
 */
type Case = { zone: string; edges: [string, string, string, string] };

const CASES: Record<string, Case> = {
  'Europe/Berlin, spring forward (23 h)': {
    zone: 'Europe/Berlin',
    edges: [
      '2026-03-27T23:00:00.000Z',
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
      '2026-03-30T22:00:00.000Z',
    ],
  },
  'Europe/Berlin, fall back (25 h)': {
    zone: 'Europe/Berlin',
    edges: [
      '2026-10-23T22:00:00.000Z',
      '2026-10-24T22:00:00.000Z',
      '2026-10-25T23:00:00.000Z',
      '2026-10-26T23:00:00.000Z',
    ],
  },
  'America/New_York, spring forward (23 h)': {
    zone: 'America/New_York',
    edges: [
      '2026-03-07T05:00:00.000Z',
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
      '2026-03-10T04:00:00.000Z',
    ],
  },
  'America/New_York, fall back (25 h)': {
    zone: 'America/New_York',
    edges: [
      '2026-10-31T04:00:00.000Z',
      '2026-11-01T04:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
      '2026-11-03T05:00:00.000Z',
    ],
  },
  'Asia/Kolkata, a half-hour zone': {
    zone: 'Asia/Kolkata',
    edges: [
      '2026-01-08T18:30:00.000Z',
      '2026-01-09T18:30:00.000Z',
      '2026-01-10T18:30:00.000Z',
      '2026-01-11T18:30:00.000Z',
    ],
  },
  // Local midnights at :15 past a UTC hour: the quarter-hour rows of ADR 095 number their local days.
  'Asia/Kathmandu, a +05:45 zone': {
    zone: 'Asia/Kathmandu',
    edges: [
      '2026-01-07T18:15:00.000Z',
      '2026-01-08T18:15:00.000Z',
      '2026-01-09T18:15:00.000Z',
      '2026-01-10T18:15:00.000Z',
    ],
  },
  'Pacific/Chatham, +13:45 in summer': {
    zone: 'Pacific/Chatham',
    edges: [
      '2026-01-07T10:15:00.000Z',
      '2026-01-08T10:15:00.000Z',
      '2026-01-09T10:15:00.000Z',
      '2026-01-10T10:15:00.000Z',
    ],
  },
};

const before = (iso: string) => new Date(Date.parse(iso) - 1).toISOString();
const OVERVIEW = `query Overview($projectId: ID!, $from: DateTime, $to: DateTime, $previous: Boolean) {
  analyticsOverview(projectId: $projectId, from: $from, to: $to, previous: $previous) {
    totalTransactions dailyActiveWallets averageTransactionsPerUserPerDay
    dailyActiveWalletsTrend { current previous previousFrom previousTo }
  }
}`;

/** The same figures with a filter every session passes (each event is a desktop's): the filtered overview (ADR 086). */
const FILTERED_OVERVIEW = `query Overview($projectId: ID!, $from: DateTime, $to: DateTime, $filters: AnalyticsFilters) {
  analyticsOverview(projectId: $projectId, from: $from, to: $to, filters: $filters) {
    totalTransactions dailyActiveWallets averageTransactionsPerUserPerDay
    dailyActiveWalletsTrend { current previous previousFrom previousTo }
  }
}`;

const COHORTS = `query C($projectId: ID!, $from: DateTime, $to: DateTime) {
  retentionCohorts(projectId: $projectId, from: $from, to: $to) {
    granularity cohorts { start end size returned }
  }
}`;

describe('per-day averages in the project time zone', () => {
  const test = useTestApp('sqlite');
  let owner: SeededUser;
  const projectOf: Record<string, string> = {};
  const utcTwinOf: Record<string, string> = {};

  beforeAll(async () => {
    const api = apiClient(test.app);
    owner = await seed(test.services).user().verified();
    const rows = [];
    for (const [name, { zone, edges }] of Object.entries(CASES)) {
      for (const target of [projectOf, utcTwinOf]) {
        const created = await api.post('projects', { token: owner.token, body: { name: name.slice(0, 40) } });
        const id = created.json().id as string;
        target[name] = id;
        if (target === projectOf) {
          const set = await api.patch(`projects/${id}`, { token: owner.token, body: { timeZone: zone } });
          expect(set.json().timeZone).toBe(zone);
        }
        const [, dayStart, dayEnd] = edges;
        rows.push(
          eventRow(id, before(dayStart), 'u1', 'wallet_connected', { withWallet: true }),
          eventRow(id, dayStart, 'u1', 'wallet_connected', { withWallet: true }),
          eventRow(id, before(dayEnd), 'u2', 'wallet_connected', { withWallet: true }),
          eventRow(id, dayEnd, 'u2', 'wallet_connected', { withWallet: true }),
          ...txRows(id, {
            txId: `tx-${id}`,
            user: 'u1',
            kind: 'coin',
            chainId: 1,
            stages: [['requested', new Date(Date.parse(dayStart) + 60_000).toISOString()]],
          }),
        );
      }
    }
    await storeRows(test.services.eventStore, rows);
  });

  async function overview(projectId: string, variables: Record<string, unknown>) {
    const answer = await graphqlClient(test.app)(
      OVERVIEW,
      { projectId, ...variables },
      { token: owner.token },
    );
    return dataOf(answer).analyticsOverview as {
      totalTransactions: number;
      dailyActiveWallets: number;
      averageTransactionsPerUserPerDay: number | null;
      dailyActiveWalletsTrend: {
        current: number;
        previous: number;
        previousFrom: string;
        previousTo: string;
      };
    };
  }

  async function cohorts(projectId: string, variables: Record<string, unknown>) {
    const answer = await graphqlClient(test.app)(
      COHORTS,
      { projectId, ...variables },
      { token: owner.token },
    );
    return dataOf(answer).retentionCohorts as {
      granularity: string;
      cohorts: { start: string; end: string; size: number; returned: number[] }[];
    };
  }

  for (const [name, { zone, edges }] of Object.entries(CASES)) {
    it(`${name}: daily retention cohorts are local days`, async () => {
      const [from, dayStart, dayEnd, to] = edges;
      const answer = await cohorts(projectOf[name] as string, { from, to });
      expect(answer.granularity).toBe('DAY');
      const backNextDay = [1, ...Array.from({ length: 11 }, () => 0)];
      expect(answer.cohorts).toEqual([
        { start: from, end: dayStart, size: 1, returned: backNextDay },
        { start: dayStart, end: dayEnd, size: 1, returned: backNextDay },
      ]);
    });

    it(`${name}: all time's cohorts start at the local midnight of the first event`, async () => {
      const answer = await cohorts(projectOf[name] as string, {});
      expect(answer.cohorts[0]?.start).toBe(edges[0]);
      expect(answer.cohorts.reduce((sum, cohort) => sum + cohort.size, 0)).toBe(2);
    });

    it(`${name}: a UTC project's cohorts step by 24 elapsed hours`, async () => {
      const [from, , , to] = edges;
      const answer = await cohorts(utcTwinOf[name] as string, { from, to });
      const starts = answer.cohorts.map((cohort) => Date.parse(cohort.start) - Date.parse(from));
      expect(starts.every((start) => start % 86_400_000 === 0)).toBe(true);
    });

    it(`${name}: wallet- and user-days of local days over the local days touched`, async () => {
      const [from, , , to] = edges;
      const answer = await overview(projectOf[name] as string, { from, to });
      expect(answer.totalTransactions).toBe(1);
      expect(answer.dailyActiveWallets).toBeCloseTo(4 / 3, 12);
      expect(answer.averageTransactionsPerUserPerDay).toBeCloseTo(1 / 4, 12);
      expect(answer.dailyActiveWalletsTrend.current).toBeCloseTo(4 / 3, 12);
      expect(answer.dailyActiveWalletsTrend.previous).toBe(0);
    });

    it(`${name}: with a filter, wallet- and user-days are of local days too`, async () => {
      const [from, , , to] = edges;
      const answer = await graphqlClient(test.app)(
        FILTERED_OVERVIEW,
        { projectId: projectOf[name], from, to, filters: { devices: ['desktop'] } },
        { token: owner.token },
      );
      const filtered = dataOf(answer).analyticsOverview as Awaited<ReturnType<typeof overview>>;
      expect(filtered.totalTransactions).toBe(1);
      expect(filtered.dailyActiveWallets).toBeCloseTo(4 / 3, 12);
      expect(filtered.averageTransactionsPerUserPerDay).toBeCloseTo(1 / 4, 12);
      expect(filtered.dailyActiveWalletsTrend.previous).toBe(0);
    });

    it(`${name}: a range whose ends are off the quarter-hours counts the events of its ends by their local day`, async () => {
      const [, dayStart, dayEnd] = edges;
      // From day 0's last millisecond to day 2's first: W1 and u1 on day 0 and day 1, W2 and u2 on day 1
      // and day 2, the ends' events read from the events (ADR 095), 3 local days touched.
      const answer = await overview(projectOf[name] as string, {
        from: before(dayStart),
        to: new Date(Date.parse(dayEnd) + 1).toISOString(),
      });
      expect(answer.dailyActiveWallets).toBeCloseTo(4 / 3, 12);
      expect(answer.averageTransactionsPerUserPerDay).toBeCloseTo(1 / 4, 12);
      expect(answer.dailyActiveWalletsTrend.previous).toBe(0);
    });

    it(`${name}: the changing day alone is one day`, async () => {
      const [, dayStart, dayEnd] = edges;
      const answer = await overview(projectOf[name] as string, { from: dayStart, to: dayEnd });
      // W1 (its first millisecond) and W2 (its last): 2 wallets on 1 day; u1 and u2 on it, 1 transaction.
      expect(answer.dailyActiveWallets).toBe(2);
      expect(answer.averageTransactionsPerUserPerDay).toBe(0.5);
    });

    it(`${name}: the previous period counts its own local days`, async () => {
      const [, dayStart, , to] = edges;
      // The range [day 2's start, to) has day 1 (or most of it) as its previous period.
      const answer = await overview(projectOf[name] as string, { from: edges[2], to, previous: true });
      const previous = await overview(projectOf[name] as string, { from: edges[2], to });
      expect(answer.dailyActiveWallets).toBe(previous.dailyActiveWalletsTrend.previous);
      expect(Date.parse(previous.dailyActiveWalletsTrend.previousTo)).toBe(Date.parse(edges[2]));
      expect(Date.parse(previous.dailyActiveWalletsTrend.previousFrom)).toBeLessThanOrEqual(
        Date.parse(dayStart) + 3_600_000,
      );
      expect(previous.dailyActiveWallets).toBe(1);
    });

    it(`${name}: over three years of local days, the engine's own zone data gives the same wallet-days`, async () => {
      const [from, , , to] = edges;
      // Two years before and after: 1,400+ local days, past localDayRuns' limit; the same 4 wallet-days.
      const longFrom = startOfLocalDay(Date.parse(from), zone, -730);
      const longTo = startOfLocalDay(Date.parse(to), zone, 730);
      const days = localDaysIn(longFrom, longTo, zone);
      expect(days).toBeGreaterThan(MAX_LOCAL_DAY_RUN_DAYS);
      const answer = await overview(projectOf[name] as string, {
        from: new Date(longFrom).toISOString(),
        to: new Date(longTo).toISOString(),
      });
      expect(answer.dailyActiveWallets).toBeCloseTo(4 / days, 12);
      expect(answer.averageTransactionsPerUserPerDay).toBeCloseTo(1 / 4, 12);
    });

    it(`${name}: a UTC project keeps UTC days for the same events and range`, async () => {
      const [from, , , to] = edges;
      const answer = await overview(utcTwinOf[name] as string, { from, to });
      expect(answer.dailyActiveWallets).toBe(2 / 4);
      expect(answer.averageTransactionsPerUserPerDay).toBe(1 / 2);
    });
  }
});
