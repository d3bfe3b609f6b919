import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventRow } from '../analytics/events-fixture.ts';
import { dataOf, errorOf, graphqlClient } from '../analytics/graphql-client.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';

/**
 * Range lengths are counted in days of the project's zone (docs/wallets.md: "Ranges", "Period"), however
 * many hours a change of the clocks gives them. New York: EDT (UTC−4) from 2026-03-08 07:00Z, EST (UTC−5)
 * from 2026-11-01 06:00Z. Kolkata (UTC+5:30) has no change. The clock: 2026-12-02 04:18:38Z, 09:48 in
 * Kolkata on 2 December.
 */
const COHORTS = `query C($projectId: ID!, $from: DateTime, $to: DateTime) {
  retentionCohorts(projectId: $projectId, from: $from, to: $to) { granularity }
}`;
const LIST = `query List($projectId: ID!, $from: DateTime, $to: DateTime) {
  wallets(projectId: $projectId, from: $from, to: $to) { from to asOf }
}`;
const LIFECYCLE = `query L($projectId: ID!, $from: DateTime, $to: DateTime) {
  walletLifecycle(projectId: $projectId, from: $from, to: $to) { current { asOf } previous { asOf } }
}`;

describe('range lengths in local days', () => {
  const test = useTestApp('sqlite');
  let owner: SeededUser;
  const projectIn: Record<string, string> = {};

  beforeAll(async () => {
    test.clock.setTo(Date.parse('2026-12-02T04:18:38Z'));
    const api = apiClient(test.app);
    owner = await seed(test.services).user().verified();
    for (const zone of ['America/New_York', 'Asia/Kolkata']) {
      const id = (await api.post('projects', { token: owner.token, body: { name: zone } })).json()
        .id as string;
      const set = await api.patch(`projects/${id}`, { token: owner.token, body: { timeZone: zone } });
      expect(set.json().timeZone).toBe(zone);
      projectIn[zone] = id;
    }
    await storeRows(test.services.eventStore, [
      eventRow(projectIn['Asia/Kolkata'] as string, '2024-06-01T10:00:00Z', 'u1', 'wallet_connected', {
        withWallet: true,
      }),
      eventRow(projectIn['America/New_York'] as string, '2026-03-02T15:00:00Z', 'u2', 'wallet_connected', {
        withWallet: true,
      }),
    ]);
  });

  afterAll(() => test.clock.reset());

  const ask = async (query: string, zone: string, range: { from?: string; to?: string }) =>
    graphqlClient(test.app)(query, { projectId: projectIn[zone], ...range }, { token: owner.token });

  it('gives cohorts of weeks from 30 local days, though the spring change makes them 719 hours', async () => {
    const granularityOf = async (from: string, to: string) => {
      const data = dataOf(await ask(COHORTS, 'America/New_York', { from, to }));
      return (data.retentionCohorts as { granularity: string }).granularity;
    };
    // 1 to 30 March (30 local days, 719 h) and 1 to 29 March (29 days, 695 h).
    expect(await granularityOf('2026-03-01T05:00:00Z', '2026-03-31T04:00:00Z')).toBe('WEEK');
    expect(await granularityOf('2026-03-01T05:00:00Z', '2026-03-30T04:00:00Z')).toBe('DAY');
    // Over the autumn change: 29 local days are 697 hours, still days; 30 are weeks.
    expect(await granularityOf('2026-10-04T04:00:00Z', '2026-11-02T05:00:00Z')).toBe('DAY');
    expect(await granularityOf('2026-10-03T04:00:00Z', '2026-11-02T05:00:00Z')).toBe('WEEK');
  });

  it('takes 400 local days over two autumn changes and one spring one, and refuses 401', async () => {
    // 25 October 2026 to 28 November 2027, New York: 400 local days, 9,601 hours.
    const to = '2027-11-29T05:00:00Z';
    const held = dataOf(await ask(LIST, 'America/New_York', { from: '2026-10-25T04:00:00Z', to }));
    expect((held.wallets as { from: string }).from).toBe('2026-10-25T04:00:00.000Z');
    dataOf(await ask(LIFECYCLE, 'America/New_York', { from: '2026-10-25T04:00:00Z', to }));
    const refused = await ask(LIST, 'America/New_York', { from: '2026-10-24T04:00:00Z', to });
    expect(errorOf(refused).code).toBe('BAD_USER_INPUT');
  });

  it('cuts an open start longer than 400 days at the midnight of the 400th local day back', async () => {
    // The first event is 1 June 2024; today is 2 December 2026 in Kolkata: the last 400 local days are 29
    // October 2025 (its midnight, 28 October 18:30Z) to today, today counted.
    const list = dataOf(await ask(LIST, 'Asia/Kolkata', {})).wallets as { from: string; asOf: string };
    expect(list.from).toBe('2025-10-28T18:30:00.000Z');
    expect(list.asOf).toBe('2026-12-02');
    const lifecycle = dataOf(await ask(LIFECYCLE, 'Asia/Kolkata', {})).walletLifecycle as {
      current: { asOf: string };
      previous: { asOf: string };
    };
    // One range length (400 local days) before the as-of day.
    expect(lifecycle.current.asOf).toBe('2026-12-02');
    expect(lifecycle.previous.asOf).toBe('2025-10-28');
  });
});
