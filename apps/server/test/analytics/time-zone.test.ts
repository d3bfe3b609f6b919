import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { eventRow } from './events-fixture.ts';
import { dataOf, graphqlClient } from './graphql-client.ts';
import { SERIES_QUERY } from './setup.ts';

/**
 * Day buckets in the project's time zone (docs/timezone.md): a 23- and a 25-hour day are one bucket each,
 * and a half-hour zone's days start at :30 UTC. Each case stores four wallet connections: the last
 * millisecond of the first local day, the first and last of the changing day, the first of the next.
 * In UTC days the same events would fall 2, 2 (or 1, 2, 1 on other days): only local days give 1, 2, 1.
 * The suite runs on both engines (the `server` and `server-clickhouse` projects).
 */
type Case = {
  zone: string;
  /** Local midnights as UTC instants: the range's start, the changing day's start and end, the range's end. */
  edges: [string, string, string, string];
  /** The length in hours of the middle day. */
  hours: number;
};

const CASES: Record<string, Case> = {
  'Europe/Berlin, spring forward (23 h)': {
    zone: 'Europe/Berlin',
    edges: [
      '2026-03-27T23:00:00.000Z',
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
      '2026-03-30T22:00:00.000Z',
    ],
    hours: 23,
  },
  'Europe/Berlin, fall back (25 h)': {
    zone: 'Europe/Berlin',
    edges: [
      '2026-10-23T22:00:00.000Z',
      '2026-10-24T22:00:00.000Z',
      '2026-10-25T23:00:00.000Z',
      '2026-10-26T23:00:00.000Z',
    ],
    hours: 25,
  },
  'America/New_York, spring forward (23 h)': {
    zone: 'America/New_York',
    edges: [
      '2026-03-07T05:00:00.000Z',
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
      '2026-03-10T04:00:00.000Z',
    ],
    hours: 23,
  },
  'America/New_York, fall back (25 h)': {
    zone: 'America/New_York',
    edges: [
      '2026-10-31T04:00:00.000Z',
      '2026-11-01T04:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
      '2026-11-03T05:00:00.000Z',
    ],
    hours: 25,
  },
  'Asia/Kolkata, a half-hour zone': {
    zone: 'Asia/Kolkata',
    edges: [
      '2026-01-08T18:30:00.000Z',
      '2026-01-09T18:30:00.000Z',
      '2026-01-10T18:30:00.000Z',
      '2026-01-11T18:30:00.000Z',
    ],
    hours: 24,
  },
};

const before = (iso: string) => new Date(Date.parse(iso) - 1).toISOString();

describe('series in the project time zone', () => {
  const test = useTestApp('sqlite');
  let owner: SeededUser;
  const projectOf: Record<string, string> = {};
  const utcTwinOf: Record<string, string> = {};

  beforeAll(async () => {
    const api = apiClient(test.app);
    const user = await seed(test.services).user().verified();
    owner = user;
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
          eventRow(id, dayStart, 'u2', 'wallet_connected', { withWallet: true }),
          eventRow(id, before(dayEnd), 'u3', 'wallet_connected', { withWallet: true }),
          eventRow(id, dayEnd, 'u4', 'wallet_connected', { withWallet: true }),
        );
      }
    }
    await storeRows(test.services.eventStore, rows);
  });

  async function series(projectId: string, variables: Record<string, unknown>) {
    const answer = await graphqlClient(test.app)(
      SERIES_QUERY('totalConnectedWallets'),
      { projectId, ...variables },
      { token: owner.token },
    );
    return dataOf(answer).totalConnectedWallets as { from: string; to: string; value: number }[];
  }

  for (const [name, { edges, hours }] of Object.entries(CASES)) {
    it(`${name}: each local day is one bucket from local midnight to local midnight`, async () => {
      const [from, dayStart, dayEnd, to] = edges;
      const buckets = await series(projectOf[name] as string, { from, to, granularity: '1d' });
      expect(buckets).toEqual([
        { from, to: dayStart, value: 1 },
        { from: dayStart, to: dayEnd, value: 2 },
        { from: dayEnd, to, value: 1 },
      ]);
      expect((Date.parse(dayEnd) - Date.parse(dayStart)) / 3_600_000).toBe(hours);
    });

    it(`${name}: hours step by elapsed time (the middle day has ${hours} of them)`, async () => {
      const [, dayStart, dayEnd] = edges;
      const buckets = await series(projectOf[name] as string, {
        from: dayStart,
        to: dayEnd,
        granularity: '1h',
      });
      expect(buckets).toHaveLength(hours);
      expect(buckets.reduce((sum, bucket) => sum + bucket.value, 0)).toBe(2);
    });

    it(`${name}: a UTC project steps the same range by elapsed 24 hours`, async () => {
      const [from, , , to] = edges;
      const buckets = await series(utcTwinOf[name] as string, { from, to, granularity: '1d' });
      const starts = buckets.map((bucket) => Date.parse(bucket.from) - Date.parse(from));
      expect(starts).toEqual(starts.map((_, index) => index * 86_400_000));
      expect(buckets.at(-1)?.to).toBe(to);
      expect(buckets.reduce((sum, bucket) => sum + bucket.value, 0)).toBe(4);
    });
  }

  it('all time starts at the local midnight of the first event', async () => {
    const name = 'Asia/Kolkata, a half-hour zone';
    const [bucket] = await series(projectOf[name] as string, {});
    expect(bucket?.from).toBe('2026-01-08T18:30:00.000Z');
    expect(bucket?.value).toBe(4);
  });

  it('a week of local days across a change is one 7-day bucket of 167 hours', async () => {
    const name = 'Europe/Berlin, spring forward (23 h)';
    // Monday 23 March to Monday 30 March 2026, local.
    const buckets = await series(projectOf[name] as string, {
      from: '2026-03-22T23:00:00.000Z',
      to: '2026-03-29T22:00:00.000Z',
      granularity: '7d',
    });
    expect(buckets).toEqual([{ from: '2026-03-22T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z', value: 3 }]);
  });
});
