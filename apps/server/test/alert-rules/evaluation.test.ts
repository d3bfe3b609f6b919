import { AlertFiringListSchema, AlertPreviewSchema } from '@polyflow/contracts/alert-rules';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { eventRow, txRows } from '../analytics/events-fixture.ts';
import { graphqlClient } from '../analytics/graphql-client.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { ENGINES_BESIDE_EVENT_STORE, useTestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { recordingChannels } from './support.ts';

const MINUTE = 60_000;
const OVERVIEW = `query($p: ID!, $from: DateTime, $to: DateTime) {
  analyticsOverview(projectId: $p, from: $from, to: $to) {
    totalTransactions failedTransactions attemptedTransactions transactionFailRate
  }
}`;

/**
 * The evaluation end to end on the event store chosen by EVENT_STORE (the server-clickhouse project runs
 * it on ClickHouse), the rules in SQLite and PostgreSQL: events stored through the port, the clock moved,
 * each firing's notice recorded.
 */
describe.each(ENGINES_BESIDE_EVENT_STORE)('alert evaluation, accounts on %s', (engine) => {
  const channels = recordingChannels();
  const t = useTestApp(engine, {}, channels.options);
  const api = () => apiClient(t.app);
  let t0: number;
  let owner: SeededUser;
  let swaps: string;
  let quiet: string;
  let errors: string;
  const channelOf = new Map<string, string>();
  let seq = 0;
  const at = (offsetMs: number) => new Date(t0 + offsetMs).toISOString();
  const evaluate = () => t.services.alertRules.evaluate();
  /** The notices recorded since the last take, of one project only (the others' rules keep running). */
  const takeOf = (projectId: string) =>
    channels.take().filter(({ notice }) => notice.project.id === projectId);
  /** Moves the clock to t0 + offset. */
  const moveTo = (offsetMs: number) => t.clock.setTo(t0 + offsetMs);

  function failingTransactions(projectId: string, offsetMs: number): EventRow[] {
    const tx = (stages: [string, number][]) =>
      txRows(projectId, {
        txId: `tx-${seq++}`,
        user: 'u1',
        kind: 'contract',
        chainId: 1,
        hash: `0x${seq.toString(16).padStart(64, '0')}`,
        stages: stages.map(([stage, ms]) => [stage, at(offsetMs + ms)]),
      });
    return [
      // Reverted twice, failed before submission once, confirmed once, rejected once: 3 failed of 4 attempted.
      ...tx([
        ['requested', 0],
        ['submitted', 1000],
        ['reverted', 20_000],
      ]),
      ...tx([
        ['requested', 100],
        ['submitted', 1100],
        ['reverted', 21_000],
      ]),
      ...tx([
        ['requested', 200],
        ['failed', 300],
      ]),
      ...tx([
        ['requested', 300],
        ['submitted', 1300],
        ['confirmed', 22_000],
      ]),
      ...tx([
        ['requested', 400],
        ['rejected', 900],
      ]),
    ];
  }

  const errorAt = (projectId: string, offsetMs: number, user = 'u2') =>
    eventRow(projectId, at(offsetMs), user as 'u2', 'error', {
      error_source: 'window',
      error_message: 'TypeError: amount is undefined',
      error_stack: 'TypeError: amount is undefined\n    at swap (https://app.example.com/assets/app.js:10:5)',
    });

  async function createRule(projectId: string, body: Record<string, unknown>) {
    const response = await api().post(`projects/${projectId}/alert-rules`, {
      token: owner.token,
      body: { name: `${body.kind} rule`, channelIds: [channelOf.get(projectId)], ...body },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string };
  }

  beforeAll(async () => {
    t0 = Math.floor(t.clock().getTime() / MINUTE) * MINUTE + 30_000;
    moveTo(0);
    const seeded = await seed(t.services).user().verified().project('Swaps');
    owner = seeded.user;
    swaps = seeded.project.id;
    quiet = (await seed(t.services).user().verified().project('Quiet')).project.id;
    errors = (await seed(t.services).user().verified().project('Errors')).project.id;
    await t.services.db
      .insertInto('project_members')
      .values(
        [quiet, errors].map((projectId) => ({
          project_id: projectId,
          user_id: owner.id,
          role: 'admin' as const,
          joined_at: at(0),
        })),
      )
      .execute();
    for (const projectId of [swaps, quiet, errors]) channelOf.set(projectId, channels.addChannel(projectId));
    await storeRows(t.services.eventStore, [
      ...failingTransactions(swaps, -10 * MINUTE),
      // Before the 60-minute window: not counted.
      ...failingTransactions(swaps, -61 * MINUTE),
      // Waiting in the future of the clock: they count once the clock passes them.
      ...failingTransactions(swaps, 52 * MINUTE),
      eventRow(quiet, at(-30 * MINUTE), 'u1', 'page_view'),
    ]);
  });

  it('fires a fail rate with the figures the console shows, resolves it, and holds it back in its cooldown', async () => {
    const rule = await createRule(swaps, {
      kind: 'tx_fail_rate',
      params: { windowMinutes: 60, thresholdPercent: 50, minTransactions: 4 },
      cooldownMinutes: 90,
    });
    channels.take();
    await evaluate();
    const [fired, ...more] = channels.take();
    expect(more).toEqual([]);
    expect(fired?.channelIds).toEqual([channelOf.get(swaps)]);
    expect(fired?.notice).toMatchObject({
      type: 'alert.triggered',
      project: { id: swaps, name: 'Swaps' },
      rule: { id: rule.id, name: 'tx_fail_rate rule', kind: 'tx_fail_rate' },
      at: at(0),
      subject: { kind: 'project', id: swaps },
      figures: {
        failRatePercent: 75,
        transactions: 5,
        attempted: 4,
        failed: 3,
        windowMinutes: 60,
        thresholdPercent: 50,
      },
      url: `http://polyflow.test/console/${swaps}/analytics`,
    });
    // The Analytics overview of the same window says the same.
    const overview = await graphqlClient(t.app)(
      OVERVIEW,
      { p: swaps, from: at(-60 * MINUTE), to: at(0) },
      { token: owner.token },
    );
    expect(overview.data?.analyticsOverview).toEqual({
      totalTransactions: 5,
      failedTransactions: 3,
      attemptedTransactions: 4,
      transactionFailRate: 0.75,
    });

    // Still failing: nothing new; the rule shows as firing.
    moveTo(MINUTE);
    await evaluate();
    expect(channels.take()).toEqual([]);
    const listed = (await api().get(`projects/${swaps}/alert-rules`, { token: owner.token })).json();
    expect(listed.alertRules[0]).toMatchObject({ state: 'firing', lastFiredAt: at(0) });

    // The failures leave the window: resolved.
    moveTo(51 * MINUTE);
    await evaluate();
    expect(channels.take().map(({ notice }) => [notice.type, notice.figures.attempted])).toEqual([
      ['alert.resolved', 0],
    ]);

    // Failing again 53 minutes after it fired: within the 90-minute cooldown, nothing is sent, but the
    // rule shows that its condition holds.
    moveTo(53 * MINUTE);
    await evaluate();
    expect(channels.take()).toEqual([]);
    const holding = (await api().get(`projects/${swaps}/alert-rules`, { token: owner.token })).json();
    expect(holding.alertRules[0]).toMatchObject({ state: 'firing', lastFiredAt: at(0) });
    // Past the cooldown and still failing: the same holding, no late trigger.
    moveTo(91 * MINUTE);
    await evaluate();
    expect(channels.take()).toEqual([]);

    const firings = AlertFiringListSchema.parse(
      (await api().get(`projects/${swaps}/alert-rules/${rule.id}/firings`, { token: owner.token })).json(),
    ).firings;
    expect(firings.map((firing) => [firing.type, firing.at])).toEqual([
      ['resolved', at(51 * MINUTE)],
      ['triggered', at(0)],
    ]);

    // New params start the states afresh (docs/alerts.md), but the rule's latest trigger is still its latest.
    const changed = await api().patch(`projects/${swaps}/alert-rules/${rule.id}`, {
      token: owner.token,
      body: { params: { windowMinutes: 60, thresholdPercent: 60, minTransactions: 4 } },
    });
    expect(changed.json()).toMatchObject({ state: 'ok', lastFiredAt: at(0) });
  });

  it('fires no_events after the silence, resolves when events come back, and skips paused rules', async () => {
    moveTo(91 * MINUTE);
    const silence = await createRule(quiet, { kind: 'no_events', params: { hours: 1 } });
    const paused = await createRule(quiet, { kind: 'no_events', params: { hours: 1 } });
    await api().patch(`projects/${quiet}/alert-rules/${paused.id}`, {
      token: owner.token,
      body: { paused: true },
    });
    channels.take();
    // Quiet for two hours already, but the rule counts from its creation.
    await evaluate();
    expect(channels.take().filter(({ notice }) => notice.project.id === quiet)).toEqual([]);
    moveTo(152 * MINUTE);
    await evaluate();
    const fired = channels.take().filter(({ notice }) => notice.project.id === quiet);
    expect(fired.map(({ notice }) => [notice.rule?.id, notice.type, notice.figures])).toEqual([
      [silence.id, 'alert.triggered', { hours: 1, lastEventAt: at(-30 * MINUTE) }],
    ]);
    await storeRows(t.services.eventStore, [eventRow(quiet, at(153 * MINUTE), 'u1', 'page_view')]);
    moveTo(154 * MINUTE);
    await evaluate();
    const back = channels.take().filter(({ notice }) => notice.project.id === quiet);
    expect(back.map(({ notice }) => [notice.type, notice.figures.lastEventAt])).toEqual([
      ['alert.resolved', at(153 * MINUTE)],
    ]);
    const pausedFirings = await api().get(`projects/${quiet}/alert-rules/${paused.id}/firings`, {
      token: owner.token,
    });
    expect(pausedFirings.json()).toEqual({ firings: [] });
  });

  it('fires a new incident once, a spike once per cooldown, and a regression once per resolve', async () => {
    moveTo(200 * MINUTE);
    const fresh = await createRule(errors, { kind: 'new_incident', params: { minSeverity: 'low' } });
    const severe = await createRule(errors, { kind: 'new_incident', params: { minSeverity: 'severe' } });
    const spike = await createRule(errors, {
      kind: 'incident_spike',
      params: { threshold: 3, windowMinutes: 10 },
    });
    const regression = await createRule(errors, { kind: 'incident_regression', params: {} });
    await storeRows(t.services.eventStore, [
      errorAt(errors, 205 * MINUTE),
      errorAt(errors, 206 * MINUTE),
      errorAt(errors, 207 * MINUTE, 'u3'),
      errorAt(errors, 215 * MINUTE),
    ]);
    takeOf(errors);
    moveTo(210 * MINUTE);
    await evaluate();
    const order = [fresh.id, severe.id, spike.id, regression.id];
    const first = takeOf(errors)
      .map(({ notice }) => notice)
      .sort((a, b) => order.indexOf(a.rule?.id ?? '') - order.indexOf(b.rule?.id ?? ''));
    const incidentId = first[0]?.subject.id ?? '';
    expect(first.map((notice) => [notice.rule?.id, notice.subject, notice.figures])).toEqual([
      [
        fresh.id,
        { kind: 'incident', id: incidentId, title: 'TypeError: amount is undefined' },
        { severity: 'low', firstSeenAt: at(205 * MINUTE) },
      ],
      [
        spike.id,
        { kind: 'incident', id: incidentId, title: 'TypeError: amount is undefined' },
        { occurrences: 3, windowMinutes: 10, threshold: 3 },
      ],
    ]);
    expect(first[0]?.url).toBe(`http://polyflow.test/console/${errors}/errorlogs/${incidentId}`);
    expect(severe.id).toBeTruthy();

    moveTo(211 * MINUTE);
    await evaluate();
    expect(takeOf(errors)).toEqual([]);

    // Resolved at 212 minutes; it occurs again at 215.
    await t.services.db
      .insertInto('incident_states')
      .values({
        project_id: errors,
        incident_id: incidentId,
        status: 'resolved',
        changed_at: at(212 * MINUTE),
        changed_by: owner.id,
      })
      .execute();
    moveTo(213 * MINUTE);
    await evaluate();
    expect(takeOf(errors)).toEqual([]);
    moveTo(216 * MINUTE);
    await evaluate();
    expect(takeOf(errors).map(({ notice }) => [notice.rule?.id, notice.figures])).toEqual([
      [regression.id, { resolvedAt: at(212 * MINUTE), occurredAt: at(215 * MINUTE) }],
    ]);
    moveTo(217 * MINUTE);
    await evaluate();
    expect(takeOf(errors)).toEqual([]);
  });

  it('reports a new incident with its own severity whatever the minimum, low included', async () => {
    moveTo(230 * MINUTE);
    const actor = { id: owner.id, email: owner.email, ip: '127.0.0.1' };
    const outage = (await t.services.projects.createProject(actor, 'Outage')).id;
    channelOf.set(outage, channels.addChannel(outage));
    const low = await createRule(outage, { kind: 'new_incident', params: { minSeverity: 'low' } });
    const mid = await createRule(outage, { kind: 'new_incident', params: { minSeverity: 'mid' } });
    // Ten users, every active user of the project: High by reach (docs/acquisition-and-incidents.md).
    await storeRows(
      t.services.eventStore,
      Array.from({ length: 10 }, (_, i) => ({
        ...errorAt(outage, 231 * MINUTE + i * 1000),
        user_id: `outage-user-${i}`,
        session_id: `outage-user-${i}-session`,
      })),
    );
    takeOf(outage);
    moveTo(233 * MINUTE);
    await evaluate();
    const fired = takeOf(outage).map(({ notice }) => [notice.rule?.id, notice.figures.severity]);
    expect(fired.sort()).toEqual(
      [
        [low.id, 'high'],
        [mid.id, 'high'],
      ].sort(),
    );
    const preview = await api().post(`projects/${outage}/alert-rules/preview`, {
      token: owner.token,
      body: { kind: 'new_incident', params: { minSeverity: 'low' } },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(AlertPreviewSchema.parse(preview.json()).firings.map((f) => f.figures.severity)).toEqual(['high']);
  });

  it('hands a notice over at the next evaluation when the channels failed to take it', async () => {
    moveTo(300 * MINUTE);
    const actor = { id: owner.id, email: owner.email, ip: '127.0.0.1' };
    const silent = (await t.services.projects.createProject(actor, 'Silent')).id;
    channelOf.set(silent, channels.addChannel(silent));
    const rule = await createRule(silent, { kind: 'no_events', params: { hours: 1 }, cooldownMinutes: 0 });
    channels.take();
    moveTo(361 * MINUTE);
    channels.failNotices(silent, 1);
    await evaluate();
    expect(channels.take().filter(({ notice }) => notice.project.id === silent)).toEqual([]);
    const stored = (
      await api().get(`projects/${silent}/alert-rules/${rule.id}/firings`, { token: owner.token })
    ).json();
    expect(stored.firings).toHaveLength(1);
    moveTo(362 * MINUTE);
    await evaluate();
    const handed = channels
      .take()
      .map(({ notice }) => notice)
      .filter((notice) => notice.project.id === silent);
    expect(handed.map((notice) => [notice.id, notice.rule?.id, notice.type])).toEqual([
      [stored.firings[0].id, rule.id, 'alert.triggered'],
    ]);
  });

  it('previews what a rule would have fired over the last 7 days, cooldown applied', async () => {
    moveTo(400 * MINUTE);
    const preview = await api().post(`projects/${swaps}/alert-rules/preview`, {
      token: owner.token,
      body: { kind: 'tx_fail_rate', params: { windowMinutes: 60, thresholdPercent: 50, minTransactions: 4 } },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const { firings } = AlertPreviewSchema.parse(preview.json());
    // The evaluation runs every minute on the minute: the failures at t0 − 61 min are seen at the next
    // minute, leave the window an hour later, and the ones at t0 − 10 min are then within the cooldown (60)
    // of that first firing only if less than an hour passed: 51 minutes did, so they do not fire; those at
    // t0 + 52 min do.
    const minuteAfter = (offsetMs: number) =>
      new Date(Math.ceil((t0 + offsetMs + 1) / MINUTE) * MINUTE).toISOString();
    expect(firings.map((firing) => [firing.at, firing.figures.failRatePercent])).toEqual([
      [minuteAfter(-61 * MINUTE + 400), 75],
      [minuteAfter(52 * MINUTE + 400), 75],
    ]);
    const bad = await api().post(`projects/${swaps}/alert-rules/preview`, {
      token: owner.token,
      body: { kind: 'tx_fail_rate', params: { windowMinutes: 1 } },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('previews a silent project from its creation, not from before it existed', async () => {
    moveTo(1000 * MINUTE);
    const fresh = await seed(t.services).user().verified().project('Fresh');
    moveTo(1000 * MINUTE + 3 * 60 * MINUTE);
    const preview = await api().post(`projects/${fresh.project.id}/alert-rules/preview`, {
      token: fresh.user.token,
      body: { kind: 'no_events', params: { hours: 1 }, cooldownMinutes: 0 },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const { firings } = AlertPreviewSchema.parse(preview.json());
    // Created at t0 + 1000 min (t0 is 30 s past a minute): quiet for an hour first at the minute after
    // creation + 60 min, and firing from then on (no cooldown), so once; nothing in the 7 days before.
    const created = t0 + 1000 * MINUTE;
    expect(firings.map((firing) => firing.at)).toEqual([
      new Date(Math.ceil((created + 60 * MINUTE) / MINUTE) * MINUTE).toISOString(),
    ]);
  });
});
