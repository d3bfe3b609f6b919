import { AlertRuleListSchema, AlertRuleSchema } from '@polyflow/contracts/alert-rules';
import { describe, expect, it } from 'vitest';
import { apiClient } from '../support/client.ts';
import { ENGINES, useTestApp } from '../support/harness.ts';
import { seed, snapshot } from '../support/seed.ts';
import { recordingChannels } from './support.ts';

const FAIL_RATE = { windowMinutes: 15, thresholdPercent: 5, minTransactions: 10 };

/** One bad body per range limit of each kind (docs/alerts.md#rules), and malformed ones. */
const BAD_BODIES: [string, Record<string, unknown>][] = [
  ['unknown kind', { kind: 'gas_price', params: {} }],
  ['no kind', { params: {} }],
  ['fail rate window under 5', { kind: 'tx_fail_rate', params: { ...FAIL_RATE, windowMinutes: 4 } }],
  ['fail rate window over 1440', { kind: 'tx_fail_rate', params: { ...FAIL_RATE, windowMinutes: 1441 } }],
  ['fail rate window not whole', { kind: 'tx_fail_rate', params: { ...FAIL_RATE, windowMinutes: 7.5 } }],
  ['threshold under 0', { kind: 'tx_fail_rate', params: { ...FAIL_RATE, thresholdPercent: -0.1 } }],
  ['threshold over 100', { kind: 'tx_fail_rate', params: { ...FAIL_RATE, thresholdPercent: 100.1 } }],
  ['threshold as text', { kind: 'tx_fail_rate', params: { ...FAIL_RATE, thresholdPercent: '5' } }],
  ['min transactions 0', { kind: 'tx_fail_rate', params: { ...FAIL_RATE, minTransactions: 0 } }],
  ['fail rate without a param', { kind: 'tx_fail_rate', params: { windowMinutes: 15, thresholdPercent: 5 } }],
  ['fail rate with an unknown param', { kind: 'tx_fail_rate', params: { ...FAIL_RATE, extra: 1 } }],
  ['unknown severity', { kind: 'new_incident', params: { minSeverity: 'critical' } }],
  ['severity in capitals', { kind: 'new_incident', params: { minSeverity: 'High' } }],
  ['regression with a param', { kind: 'incident_regression', params: { threshold: 1 } }],
  ['spike threshold 0', { kind: 'incident_spike', params: { threshold: 0, windowMinutes: 10 } }],
  ['spike window under 5', { kind: 'incident_spike', params: { threshold: 5, windowMinutes: 4 } }],
  ['spike window over 1440', { kind: 'incident_spike', params: { threshold: 5, windowMinutes: 1441 } }],
  ['silence of 0 hours', { kind: 'no_events', params: { hours: 0 } }],
  ['silence over 168 hours', { kind: 'no_events', params: { hours: 169 } }],
  ['params of another kind', { kind: 'no_events', params: { minSeverity: 'low' } }],
  ['negative cooldown', { kind: 'no_events', params: { hours: 1 }, cooldownMinutes: -1 }],
  ['cooldown over a week', { kind: 'no_events', params: { hours: 1 }, cooldownMinutes: 10_081 }],
  ['a channel id that is no uuid', { kind: 'no_events', params: { hours: 1 }, channelIds: ['email'] }],
];

describe.each(ENGINES)('alert rules on %s', (engine) => {
  const channels = recordingChannels();
  const t = useTestApp(engine, {}, channels.options);
  const api = () => apiClient(t.app);

  async function owner() {
    const seeded = await seed(t.services).user().verified().project();
    const rules = `projects/${seeded.project.id}/alert-rules`;
    const create = (body: Record<string, unknown>) =>
      api().post(rules, { token: seeded.user.token, body: { name: 'Rule', channelIds: [], ...body } });
    return { ...seeded, rules, create };
  }

  it('creates each kind with its defaults, lists, changes, pauses and deletes rules', async () => {
    const { user, project, rules, create } = await owner();
    const channel = channels.addChannel(project.id);
    const bodies = [
      { kind: 'tx_fail_rate', params: FAIL_RATE, channelIds: [channel] },
      { kind: 'new_incident', params: { minSeverity: 'high' } },
      { kind: 'incident_regression', params: {} },
      { kind: 'incident_spike', params: { threshold: 1, windowMinutes: 5 } },
      { kind: 'no_events', params: { hours: 168 }, cooldownMinutes: 0 },
    ];
    for (const body of bodies) {
      const created = await create({ ...body, name: `  ${body.kind}  ` });
      expect(created.statusCode, created.body).toBe(201);
      expect(AlertRuleSchema.parse(created.json())).toMatchObject({
        name: body.kind,
        kind: body.kind,
        params: body.params,
        channelIds: body.channelIds ?? [],
        cooldownMinutes: body.cooldownMinutes ?? 60,
        paused: false,
        state: 'ok',
        lastFiredAt: null,
      });
    }
    const listed = AlertRuleListSchema.parse((await api().get(rules, { token: user.token })).json());
    expect(listed.alertRules.map((rule) => rule.kind)).toEqual(bodies.map((body) => body.kind));
    const [first] = listed.alertRules;
    if (!first) throw new Error('no rule');

    const changed = await api().patch(`${rules}/${first.id}`, {
      token: user.token,
      body: {
        name: 'Failing swaps',
        params: { ...FAIL_RATE, thresholdPercent: 12.5 },
        paused: true,
        channelIds: [],
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      name: 'Failing swaps',
      params: { ...FAIL_RATE, thresholdPercent: 12.5 },
      paused: true,
      channelIds: [],
    });
    expect(Date.parse(changed.json().updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.updatedAt));

    const firings = await api().get(`${rules}/${first.id}/firings`, { token: user.token });
    expect(firings.json()).toEqual({ firings: [] });

    expect((await api().delete(`${rules}/${first.id}`, { token: user.token })).statusCode).toBe(204);
    expect((await api().delete(`${rules}/${first.id}`, { token: user.token })).statusCode).toBe(404);
    const after = AlertRuleListSchema.parse((await api().get(rules, { token: user.token })).json());
    expect(after.alertRules).toHaveLength(bodies.length - 1);
  });

  it.each(BAD_BODIES)('refuses %s with 400 and stores nothing', async (_label, body) => {
    const { create } = await owner();
    const before = await snapshot(t.services);
    const response = await create(body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ errorCode: 'INVALID_REQUEST_BODY', message: expect.any(String) });
    expect(await snapshot(t.services)).toBe(before);
  });

  it('refuses a name that is empty, too long or has control characters', async () => {
    const { create } = await owner();
    for (const name of ['   ', 'x'.repeat(101), 'a\u0007b']) {
      const response = await create({ name, kind: 'no_events', params: { hours: 1 } });
      expect(response.statusCode, name).toBe(400);
    }
  });

  it("refuses unknown channel ids and another project's channels, and a 51st rule", async () => {
    const { project, create } = await owner();
    const other = await seed(t.services).user().verified().project();
    const foreign = channels.addChannel(other.project.id);
    const own = channels.addChannel(project.id);
    const before = await snapshot(t.services);
    for (const channelIds of [[crypto.randomUUID()], [own, foreign], [own, own]]) {
      const response = await create({ kind: 'no_events', params: { hours: 1 }, channelIds });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errorCode).toBe('INVALID_REQUEST_BODY');
    }
    expect(await snapshot(t.services)).toBe(before);

    for (let index = 0; index < 50; index += 1) {
      expect((await create({ kind: 'no_events', params: { hours: 1 }, channelIds: [own] })).statusCode).toBe(
        201,
      );
    }
    const full = await snapshot(t.services);
    const fiftyFirst = await create({ kind: 'no_events', params: { hours: 1 } });
    expect(fiftyFirst.statusCode).toBe(400);
    expect(fiftyFirst.json()).toMatchObject({
      errorCode: 'INVALID_REQUEST_BODY',
      message: expect.stringContaining('50'),
    });
    expect(await snapshot(t.services)).toBe(full);
  });

  it("refuses a change out of its kind's ranges, a foreign channel, an empty change, and stores nothing", async () => {
    const { user, project, rules, create } = await owner();
    const other = await seed(t.services).user().verified().project();
    const foreign = channels.addChannel(other.project.id);
    const rule = (await create({ kind: 'tx_fail_rate', params: FAIL_RATE })).json();
    const before = await snapshot(t.services);
    for (const body of [
      { params: { ...FAIL_RATE, windowMinutes: 2000 } },
      { params: { hours: 2 } },
      { channelIds: [foreign] },
      { kind: 'no_events' },
      { paused: 'yes' },
      {},
    ]) {
      const response = await api().patch(`${rules}/${rule.id}`, { token: user.token, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().errorCode).toBe('INVALID_REQUEST_BODY');
    }
    expect(await snapshot(t.services)).toBe(before);
    expect(project.id).toBeTruthy();
  });

  it("answers 404 for another user's project and for a rule of another project", async () => {
    const mine = await owner();
    const theirs = await owner();
    const rule = (await theirs.create({ kind: 'no_events', params: { hours: 1 } })).json();
    const before = await snapshot(t.services);
    const asMe = { token: mine.user.token };
    const responses = [
      await api().get(theirs.rules, asMe),
      await api().post(theirs.rules, {
        ...asMe,
        body: { name: 'x', kind: 'no_events', params: { hours: 1 }, channelIds: [] },
      }),
      await api().patch(`${mine.rules}/${rule.id}`, { ...asMe, body: { paused: true } }),
      await api().delete(`${mine.rules}/${rule.id}`, asMe),
      await api().get(`${mine.rules}/${rule.id}/firings`, asMe),
      await api().get(`${mine.rules}/not-an-id/firings`, asMe),
      await api().post(`${theirs.rules}/preview`, {
        ...asMe,
        body: { kind: 'no_events', params: { hours: 1 } },
      }),
    ];
    for (const response of responses) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().errorCode).toBe('RESOURCE_NOT_FOUND');
    }
    expect(await snapshot(t.services)).toBe(before);
  });
});
