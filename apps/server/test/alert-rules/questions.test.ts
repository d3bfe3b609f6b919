import { beforeAll, describe, expect, it } from 'vitest';
import type { AlertWindow } from '../../src/modules/event-store/alert-questions.ts';
import { bucketRange, DAY_MS, type TimeRange } from '../../src/reading/time-range.ts';
import { mainProjectEvents, sameInstantEvents } from '../analytics/events-fixture.ts';
import { incidentEvents } from '../incidents/fixture.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/**
 * The alert questions' exact answers on the event store chosen by EVENT_STORE (both engines): asked for
 * many windows of several projects in one query, each window's figures equal the dashboards' own question
 * for that project and range.
 */
describe('alert questions', () => {
  const t = useTestApp('sqlite');
  let main: string;
  let same: string;
  let incidents: string;
  let empty: string;
  const ms = (iso: string) => Date.parse(iso);
  const RANGES: TimeRange[] = [
    { fromMs: ms('2024-01-01T00:00:00Z'), toMs: ms('2024-04-01T00:00:00Z') },
    { fromMs: ms('2024-02-01T00:00:00Z'), toMs: ms('2024-02-02T00:00:00Z') },
    { fromMs: ms('2024-01-31T23:55:00Z'), toMs: ms('2024-02-01T00:05:00Z') },
    { fromMs: ms('2024-02-10T12:00:00Z'), toMs: ms('2024-02-20T12:00:00Z') },
    { fromMs: ms('2024-03-01T00:00:00Z'), toMs: ms('2024-03-08T00:00:00Z') },
  ];

  beforeAll(async () => {
    const project = async (name: string) =>
      (await seed(t.services).user().verified().project(name)).project.id;
    [main, same, incidents, empty] = await Promise.all([
      project('Main'),
      project('Same'),
      project('Incidents'),
      project('Empty'),
    ]);
    await storeRows(t.services.eventStore, [
      ...mainProjectEvents(main),
      ...sameInstantEvents(same),
      ...incidentEvents(incidents),
    ]);
  });

  it('counts transactions per window and bucket as transactionOutcomes does', async () => {
    const { eventStore } = t.services;
    const windows: AlertWindow[] = [];
    const expected: {
      window: number;
      bucket: number;
      total: number;
      submitted: number;
      failed: number;
      attempted: number;
    }[] = [];
    for (const projectId of [main, same, empty, incidents]) {
      for (const range of RANGES) {
        for (const granularity of [null, '1d', '1h'] as const) {
          const bucketed = bucketRange(range, granularity);
          const index = windows.length;
          windows.push({ projectId, fromMs: range.fromMs, toMs: range.toMs, bucketMs: bucketed.bucketMs });
          for (const [bucket, counts] of await eventStore.transactionOutcomes(projectId, bucketed)) {
            expected.push({ window: index, bucket, ...counts });
          }
        }
      }
    }
    const order = (a: { window: number; bucket: number }, b: { window: number; bucket: number }) =>
      a.window - b.window || a.bucket - b.bucket;
    const answered = await eventStore.alertTxOutcomes(windows);
    expect(expected.length).toBeGreaterThan(10);
    expect([...answered].sort(order)).toEqual(expected.sort(order));
  });

  it('counts occurrences per incident as the incident summaries do, with first seen and name', async () => {
    const { eventStore } = t.services;
    const windows = RANGES.map((range) => ({
      projectId: incidents,
      ...range,
      bucketMs: range.toMs - range.fromMs,
    }));
    const answered = await eventStore.alertIncidentOccurrences([
      ...windows,
      { ...windows[0], projectId: empty } as AlertWindow,
    ]);
    const lives = await eventStore.incidentSummaries(incidents, {
      fromMs: 0,
      toMs: ms('2100-01-01T00:00:00Z'),
    });
    const expected = [];
    for (const [index, range] of RANGES.entries()) {
      for (const summary of await eventStore.incidentSummaries(incidents, range)) {
        const life = lives.find((candidate) => candidate.id === summary.id);
        expected.push({
          window: index,
          bucket: 0,
          incidentId: summary.id,
          title: life?.title,
          occurrences: summary.occurrences,
          lastMs: summary.lastSeenMs,
          firstSeenMs: life?.firstSeenMs,
        });
      }
    }
    const order = (a: { window: number; incidentId: string }, b: { window: number; incidentId: string }) =>
      a.window - b.window || a.incidentId.localeCompare(b.incidentId);
    expect(expected.length).toBeGreaterThan(2);
    expect([...answered].sort(order)).toEqual(expected.sort(order));
  });

  it('finds the latest event per window and per day', async () => {
    const { eventStore } = t.services;
    const span = await eventStore.eventSpan(main);
    if (!span) throw new Error('no events');
    const all = { projectId: main, fromMs: 0, toMs: span.lastMs + 1, bucketMs: span.lastMs + 1 };
    const before = { ...all, toMs: span.lastMs, bucketMs: span.lastMs };
    const days = {
      projectId: main,
      fromMs: span.lastMs - 3 * DAY_MS,
      toMs: span.lastMs + 1,
      bucketMs: DAY_MS,
    };
    const answered = await eventStore.alertLastEvents([all, before, days, { ...all, projectId: empty }]);
    const events = (await eventStore.projectEvents(main)).map((row) => row.ts).sort((a, b) => a - b);
    const latestBefore = (limit: number) => events.filter((ts) => ts < limit).at(-1);
    const expected = [
      { window: 0, bucket: 0, lastMs: span.lastMs },
      { window: 1, bucket: 0, lastMs: latestBefore(span.lastMs) },
      ...[0, 1, 2, 3]
        .map((bucket) => {
          const from = days.fromMs + bucket * DAY_MS;
          const inBucket = events.filter((ts) => ts >= from && ts < Math.min(from + DAY_MS, days.toMs));
          return inBucket.length > 0 ? { window: 2, bucket, lastMs: inBucket.at(-1) } : null;
        })
        .filter((row) => row !== null),
    ];
    const order = (a: { window: number; bucket: number }, b: { window: number; bucket: number }) =>
      a.window - b.window || a.bucket - b.bucket;
    expect([...answered].sort(order)).toEqual(expected);
  });
});
