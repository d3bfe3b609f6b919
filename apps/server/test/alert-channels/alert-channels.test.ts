import {
  AlertChannelListSchema,
  AlertDeliveryListSchema,
  type AlertNotice,
  CreatedAlertChannelSchema,
} from '@polyflow/contracts/alert-channels';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { apiClient, errorOf } from '../support/client.ts';
import { ENGINES, useTestApp } from '../support/harness.ts';
import { addMember, type SeededUser, seed, snapshot } from '../support/seed.ts';
import { docsVerifier, type Receiver, startReceiver } from './receiver.ts';

/**
 * Alert channels end to end (issue 27, docs/alerts.md): the routes, a real HTTP receiver on loopback
 * (WEBHOOK_ALLOW_PRIVATE_NETWORKS on), a real SMTP sink for email channels, on SQLite and PostgreSQL.
 */
describe.each(ENGINES)('alert channels on %s', (engine) => {
  const metricsToken = 'alert-metrics-token-0123456789';
  const t = useTestApp(engine, { webhookAllowPrivateNetworks: true, alertRetryBaseMs: 40, metricsToken });
  const api = () => apiClient(t.app);
  let receiver: Receiver;
  let owner: SeededUser;
  let projectId: string;
  let projectName: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    const seeded = await seed(t.services).user().verified().project('Shop');
    owner = seeded.user;
    projectId = seeded.project.id;
    projectName = seeded.project.name;
  });
  afterAll(async () => {
    await receiver.close();
  });
  afterEach(() => {
    receiver.next = [];
    receiver.otherwise = { status: 200 };
    receiver.byPath.clear();
  });

  const channels = () => `projects/${projectId}/alert-channels`;
  async function createWebhook(path: string, name = 'Hook') {
    const response = await api().post(channels(), {
      token: owner.token,
      body: { type: 'webhook', name, url: `${receiver.url}${path}` },
    });
    expect(response.statusCode, response.body).toBe(201);
    return CreatedAlertChannelSchema.parse(response.json());
  }
  const deliveriesOf = async (channelId: string) =>
    AlertDeliveryListSchema.parse(
      (await api().get(`${channels()}/${channelId}/deliveries`, { token: owner.token })).json(),
    ).deliveries;

  function notice(overrides: Partial<AlertNotice> = {}): AlertNotice {
    return {
      id: newId(),
      type: 'alert.triggered',
      project: { id: projectId, name: projectName },
      rule: { id: newId(), name: 'Checkout failures', kind: 'tx_fail_rate' },
      at: new Date().toISOString(),
      subject: { kind: 'project', id: projectId },
      figures: { failRatePercent: 42.5, transactions: 40, failed: 17, windowMinutes: 15 },
      url: `http://polyflow.test/console/${projectId}/analytics`,
      ...overrides,
    };
  }

  it('creates each type, shows a webhook secret once, lists without it, deletes', async () => {
    const hook = await createWebhook('/created');
    expect(hook).toMatchObject({
      type: 'webhook',
      name: 'Hook',
      url: `${receiver.url}/created`,
      memberIds: [],
    });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const slack = await api().post(channels(), {
      token: owner.token,
      body: { type: 'slack', name: 'Team', url: 'https://hooks.slack.com/services/T000/B000/XXXX' },
    });
    expect(slack.statusCode, slack.body).toBe(201);
    expect(slack.json().secret).toBeUndefined();
    const discord = await api().post(channels(), {
      token: owner.token,
      body: { type: 'discord', name: 'Ops', url: 'https://discord.com/api/webhooks/123/abc-DEF_1' },
    });
    expect(discord.statusCode, discord.body).toBe(201);
    const email = await api().post(channels(), {
      token: owner.token,
      body: { type: 'email', name: 'Owner', memberIds: [owner.id] },
    });
    expect(email.statusCode, email.body).toBe(201);
    expect(email.json()).toMatchObject({ type: 'email', url: null, memberIds: [owner.id] });

    const listed = await api().get(channels(), { token: owner.token });
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain('whsec_');
    const { alertChannels } = AlertChannelListSchema.parse(listed.json());
    expect(alertChannels.map((channel) => channel.id)).toEqual(
      expect.arrayContaining([hook.id, slack.json().id, discord.json().id, email.json().id]),
    );

    for (const id of [hook.id, slack.json().id, discord.json().id, email.json().id]) {
      expect((await api().delete(`${channels()}/${id}`, { token: owner.token })).statusCode).toBe(204);
    }
    expect((await api().delete(`${channels()}/${hook.id}`, { token: owner.token })).statusCode).toBe(404);
    expect(
      AlertChannelListSchema.parse((await api().get(channels(), { token: owner.token })).json()),
    ).toEqual({
      alertChannels: [],
    });
  });

  const long = `https://example.com/${'a'.repeat(2048)}`;
  it.each([
    ['an unknown type', { type: 'sms', name: 'x', url: 'https://example.com/' }],
    ['no name', { type: 'webhook', url: 'https://example.com/' }],
    ['a webhook without a URL', { type: 'webhook', name: 'x' }],
    ['an ftp URL', { type: 'webhook', name: 'x', url: 'ftp://example.com/hook' }],
    ['a javascript URL', { type: 'webhook', name: 'x', url: 'javascript:alert(1)' }],
    ['not a URL', { type: 'webhook', name: 'x', url: 'example.com/hook' }],
    ['a URL over 2048 characters', { type: 'webhook', name: 'x', url: long }],
    ['a URL with a password', { type: 'webhook', name: 'x', url: 'https://u:p@example.com/' }],
    [
      'a Slack URL that is not Slack',
      { type: 'slack', name: 'x', url: 'https://example.com/services/T/B/X' },
    ],
    ['a Slack URL over http', { type: 'slack', name: 'x', url: 'http://hooks.slack.com/services/T/B/X' }],
    [
      'a Discord URL that is not Discord',
      { type: 'discord', name: 'x', url: 'https://discord.evil.com/api/webhooks/1/a' },
    ],
    ['memberIds on a webhook', { type: 'webhook', name: 'x', url: 'https://example.com/', memberIds: [] }],
    ['an email channel without members', { type: 'email', name: 'x', memberIds: [] }],
    ['an email channel with a non-uuid', { type: 'email', name: 'x', memberIds: ['me'] }],
    ['an email channel with a URL', { type: 'email', name: 'x', memberIds: [], url: 'https://example.com/' }],
  ])('refuses %s with 400, storing nothing', async (_, body) => {
    const before = await snapshot(t.services);
    const response = await api().post(channels(), { token: owner.token, body });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response).errorCode).toBe('INVALID_REQUEST_BODY');
    expect(await snapshot(t.services)).toBe(before);
  });

  it('refuses an email channel to someone who is not a member, storing nothing', async () => {
    const stranger = await seed(t.services).user().verified().build();
    const before = await snapshot(t.services);
    const response = await api().post(channels(), {
      token: owner.token,
      body: { type: 'email', name: 'x', memberIds: [owner.id, stranger.id] },
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain(stranger.id);
    expect(await snapshot(t.services)).toBe(before);
  });

  it('keeps at most 20 channels per project', async () => {
    const { project, user } = await seed(t.services).user().verified().project('Many');
    const create = (name: string) =>
      api().post(`projects/${project.id}/alert-channels`, {
        token: user.token,
        body: { type: 'webhook', name, url: 'https://example.com/hook' },
      });
    for (let i = 0; i < 20; i++) expect((await create(`c${i}`)).statusCode).toBe(201);
    const before = await snapshot(t.services);
    const refused = await create('c20');
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toMatch(/at most 20/);
    expect(await snapshot(t.services)).toBe(before);
  });

  it('keeps the limit when 25 channels are created at once: 20 created, 5 refused', async () => {
    const { project, user } = await seed(t.services).user().verified().project('Racing');
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        api().post(`projects/${project.id}/alert-channels`, {
          token: user.token,
          body: { type: 'webhook', name: `c${i}`, url: 'https://example.com/hook' },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(20).fill(201), ...Array(5).fill(400)]);
    const listed = await api().get(`projects/${project.id}/alert-channels`, { token: user.token });
    expect(AlertChannelListSchema.parse(listed.json()).alertChannels).toHaveLength(20);
  });

  it('signs each webhook delivery so that the docs’ verification code accepts it, and nothing else', async () => {
    const hook = await createWebhook('/signed');
    const sent = await api().post(`${channels()}/${hook.id}/test`, { token: owner.token });
    expect(sent.statusCode, sent.body).toBe(202);
    const { noticeId } = sent.json() as { noticeId: string };
    const [request] = await receiver.waitFor(1, 5_000, '/signed');
    if (!request) throw new Error('no request');

    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['polyflow-delivery']).toBe(noticeId);
    const body = JSON.parse(request.body) as AlertNotice;
    expect(body).toEqual({
      id: noticeId,
      type: 'test',
      project: { id: projectId, name: projectName },
      rule: null,
      at: expect.any(String),
      subject: { kind: 'project', id: projectId },
      figures: {},
      url: `http://polyflow.test/console/${projectId}/alerts`,
    });

    const verify = await docsVerifier();
    const header = request.headers['polyflow-signature'];
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(hook.secret ?? '', request.body, header)).toBe(true);
    // Another secret, a changed body, or a t older than 5 minutes: refused.
    expect(verify(`${hook.secret}x`, request.body, header)).toBe(false);
    expect(verify(hook.secret ?? '', request.body.replace('"test"', '"alert.triggered"'), header)).toBe(
      false,
    );
    expect(verify(hook.secret ?? '', request.body, header, Date.now() + 5 * 60_000 + 2_000)).toBe(false);

    await t.services.alertChannels.flush();
    const log = await deliveriesOf(hook.id);
    expect(log).toEqual([
      {
        id: expect.any(String),
        noticeId,
        noticeType: 'test',
        attempt: 1,
        at: expect.any(String),
        statusCode: 200,
        latencyMs: expect.any(Number),
        error: null,
        state: 'delivered',
      },
    ]);
  });

  it('retries a receiver answering 500 three times: delivered on the 4th try with the same Polyflow-Delivery', async () => {
    const hook = await createWebhook('/flaky');
    const attemptsSoFar = async () => {
      const text = (
        await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } })
      ).body;
      const count = (outcome: string) =>
        Number(
          new RegExp(`^polyflow_alert_delivery_attempts_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(
            text,
          )?.[1] ?? 0,
        );
      return { delivered: count('delivered'), retrying: count('retrying') };
    };
    const before = await attemptsSoFar();
    receiver.next = [{ status: 500 }, { status: 500 }, { status: 500 }];
    const first = notice();
    await t.services.alertChannels.enqueueNotice(first, [hook.id]);
    const requests = await receiver.waitFor(4, 10_000, '/flaky');
    await t.services.alertChannels.flush();
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((request) => request.headers['polyflow-delivery']))).toEqual(
      new Set([first.id]),
    );
    expect(new Set(requests.map((request) => request.body))).toEqual(new Set([JSON.stringify(first)]));
    // Back-off: each wait at least as long as the one before (40 ms doubling).
    const gaps = requests.slice(1).map((request, i) => request.at - (requests[i]?.at ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[2]).toBeGreaterThanOrEqual(150);
    const log = await deliveriesOf(hook.id);
    expect(log.map(({ attempt, state, statusCode }) => ({ attempt, state, statusCode }))).toEqual([
      { attempt: 4, state: 'delivered', statusCode: 200 },
      { attempt: 3, state: 'failed', statusCode: 500 },
      { attempt: 2, state: 'failed', statusCode: 500 },
      { attempt: 1, state: 'failed', statusCode: 500 },
    ]);
    expect(log[1]?.error).toBe('the receiver answered 500');
    const after = await attemptsSoFar();
    expect({
      delivered: after.delivered - before.delivered,
      retrying: after.retrying - before.retrying,
    }).toEqual({
      delivered: 1,
      retrying: 3,
    });
    expect(receiver.to('/flaky')).toHaveLength(4);
  });

  it('gives a notice up after 24 hours of retries: its last line says so, nothing stays pending', async () => {
    const hook = await createWebhook('/down');
    receiver.otherwise = { status: 503 };
    const lost = notice();
    await t.services.alertChannels.enqueueNotice(lost, [hook.id]);
    await receiver.waitFor(1, 5_000, '/down');
    await t.services.alertChannels.flush();
    try {
      // A day and a bit later, the retry that comes due is the last.
      t.clock.advance(24 * 60 * 60_000 + 60_000);
      await t.services.alertChannels.flush();
    } finally {
      t.clock.reset();
    }
    const log = await t.services.alertChannels.deliveries(owner.id, projectId, hook.id);
    expect(log[0]).toMatchObject({
      noticeId: lost.id,
      state: 'failed',
      statusCode: 503,
      error: 'the receiver answered 503; gave up after 24 hours of retries',
    });
    expect(log.filter((line) => line.state === 'pending')).toEqual([]);
    const [row] = await t.services.db
      .selectFrom('alert_deliveries')
      .select(['state'])
      .where('notice_id', '=', lost.id)
      .execute();
    expect(row?.state).toBe('failed');
  });

  it('forgets finished deliveries after 30 days (the hourly pass), keeping newer and pending ones', async () => {
    const hook = await createWebhook('/kept');
    const day = 24 * 60 * 60_000;
    const row = (id: string, state: 'delivered' | 'failed' | 'pending', ageMs: number) => {
      const at = new Date(Date.now() - ageMs).toISOString();
      return {
        id,
        channel_id: hook.id,
        notice_id: newId(),
        notice_type: 'test',
        notice: '{}',
        state,
        attempts: 1,
        // Pending but not due for a long while: the queue leaves it alone during this test.
        next_attempt_at: new Date(Date.now() + 365 * day).toISOString(),
        claimed_until: null,
        claimed_by: null,
        expires_at: at,
        created_at: at,
      };
    };
    const [old, oldFailed, recent, waiting] = [newId(), newId(), newId(), newId()];
    await t.services.db
      .insertInto('alert_deliveries')
      .values([
        row(old, 'delivered', 31 * day),
        row(oldFailed, 'failed', 31 * day),
        row(recent, 'delivered', 29 * day),
        row(waiting, 'pending', 31 * day),
      ])
      .execute();
    try {
      // An hour and a bit later (the pass runs at most hourly), at the next poll.
      t.clock.advance(61 * 60_000);
      const started = Date.now();
      for (;;) {
        const left = await t.services.db
          .selectFrom('alert_deliveries')
          .select('id')
          .where('id', 'in', [old, oldFailed, recent, waiting])
          .execute();
        if (left.length === 2 || Date.now() - started > 6_000) {
          expect(left.map((r) => r.id).sort()).toEqual([recent, waiting].sort());
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      t.clock.reset();
    }
  });

  it('delivers a notice once per channel, to the project’s channels only, even when enqueued twice', async () => {
    const a = await createWebhook('/a');
    const b = await createWebhook('/b');
    const other = await seed(t.services).user().verified().project('Other');
    const foreign = await api().post(`projects/${other.project.id}/alert-channels`, {
      token: other.user.token,
      body: { type: 'webhook', name: 'theirs', url: `${receiver.url}/foreign` },
    });
    const one = notice();
    await t.services.alertChannels.enqueueNotice(one, [a.id, b.id, foreign.json().id, newId()]);
    await t.services.alertChannels.enqueueNotice(one, [a.id]);
    await t.services.alertChannels.flush();
    expect(receiver.to('/a')).toHaveLength(1);
    expect(receiver.to('/b')).toHaveLength(1);
    expect(receiver.to('/foreign')).toHaveLength(0);
    expect(receiver.to('/a')[0]?.headers['polyflow-delivery']).toBe(one.id);
  });

  it('tells a rule which channel ids are the project’s (for the rules module: channelIdsOf)', async () => {
    const mine = await createWebhook('/mine');
    const other = await seed(t.services).user().verified().project('Elsewhere');
    const theirs = await api().post(`projects/${other.project.id}/alert-channels`, {
      token: other.user.token,
      body: { type: 'webhook', name: 'theirs', url: `${receiver.url}/theirs` },
    });
    const unknown = newId();
    expect(
      await t.services.alertChannels.channelIdsOf(projectId, [
        unknown,
        theirs.json().id,
        mine.id,
        'not-an-id',
      ]),
    ).toEqual([mine.id]);
  });

  it.each([
    ['slack', (text: string) => ({ text })],
    ['discord', (content: string) => ({ content, allowed_mentions: { parse: [] } })],
  ] as const)(
    'posts %s its own readable message (headline, figures, link), unsigned',
    async (type, shape) => {
      // Slack's and Discord's URLs are pinned to their hosts: the row is stored directly, aimed at the receiver.
      const id = newId();
      await t.services.db
        .insertInto('alert_channels')
        .values({
          id,
          project_id: projectId,
          type,
          name: type,
          url: `${receiver.url}/${type}`,
          secret: null,
          member_ids: '[]',
          created_at: new Date().toISOString(),
        })
        .execute();
      const fired = notice();
      await t.services.alertChannels.enqueueNotice(fired, [id]);
      await t.services.alertChannels.flush();
      const [request] = receiver.to(`/${type}`);
      expect(request?.headers['content-type']).toBe('application/json');
      expect(request?.headers['polyflow-signature']).toBeUndefined();
      const body = JSON.parse(request?.body ?? '{}') as Record<string, unknown>;
      const text = String(body.text ?? body.content);
      expect(body).toEqual(shape(text));
      expect(text).toMatch(/Triggered/);
      expect(text).toMatch(/Checkout failures/);
      expect(text).toMatch(/Fail rate \\?\(%\\?\)\\?: 42\.5/);
      expect(text).toContain(fired.url);
    },
  );

  it('writes email channels’ notices to each chosen member through the outbox, with figures, link and the project’s clock', async () => {
    const { user: viewer } = { user: await seed(t.services).user().verified().build() };
    await addMember(t.services, projectId, viewer.id, 'viewer');
    const created = await api().post(channels(), {
      token: owner.token,
      body: { type: 'email', name: 'People', memberIds: [owner.id, viewer.id] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const zoned = await api().patch(`projects/${projectId}`, {
      token: owner.token,
      body: { timeZone: 'Asia/Kolkata' },
    });
    expect(zoned.statusCode, zoned.body).toBe(200);
    const fired = notice({ at: '2026-11-29T04:10:00.000Z' });
    await t.services.alertChannels.enqueueNotice(fired, [created.json().id]);
    await t.services.alertChannels.flush();
    await t.services.mail.flush();
    for (const to of [owner.email, viewer.email]) {
      const email = await t.mail.waitFor(to, { subject: /Checkout failures/ });
      expect(email.subject).toBe('[Polyflow] Triggered: Checkout failures (Shop)');
      expect(email.text).toContain('Fail rate (%): 42.5');
      expect(email.text).toContain('Transactions: 40');
      expect(email.text).toContain('At: 29 Nov 2026, 09:40 (Asia/Kolkata, UTC+5:30)');
      expect(email.text).toContain(fired.url);
    }
    await api().patch(`projects/${projectId}`, { token: owner.token, body: { timeZone: 'UTC' } });
    const [line] = await deliveriesOf(created.json().id);
    expect(line).toMatchObject({ noticeId: fired.id, state: 'delivered', attempt: 1 });
  });

  it('goes with its project: deleting the project deletes its channels, deliveries and log', async () => {
    const { project, user } = await seed(t.services).user().verified().project('Short-lived');
    const created = await api().post(`projects/${project.id}/alert-channels`, {
      token: user.token,
      body: { type: 'webhook', name: 'Hook', url: `${receiver.url}/gone` },
    });
    expect(created.statusCode).toBe(201);
    await t.services.alertChannels.enqueueNotice(
      notice({ project: { id: project.id, name: project.name } }),
      [created.json().id],
    );
    await t.services.alertChannels.flush();
    expect(receiver.to('/gone')).toHaveLength(1);
    expect((await api().delete(`projects/${project.id}`, { token: user.token })).statusCode).toBe(204);
    const { db } = t.services;
    expect(
      await db.selectFrom('alert_channels').where('project_id', '=', project.id).selectAll().execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('alert_deliveries')
        .where('channel_id', '=', created.json().id)
        .selectAll()
        .execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('alert_delivery_attempts')
        .where('channel_id', '=', created.json().id)
        .selectAll()
        .execute(),
    ).toEqual([]);
  });

  it('keeps delivering to others while a receiver hangs; the hanging one is bounded and retried', async () => {
    const hanging = await createWebhook('/hang');
    const fine = await createWebhook('/fine');
    receiver.byPath.set('/hang', { hang: true });
    // Four notices for the hanging receiver first: one delivery per channel at a time, so they hold one
    // of the node's four slots, not all of them.
    for (let i = 0; i < 4; i++) await t.services.alertChannels.enqueueNotice(notice(), [hanging.id]);
    await receiver.waitFor(1, 5_000, '/hang');
    const started = Date.now();
    for (let i = 0; i < 6; i++) await t.services.alertChannels.enqueueNotice(notice(), [fine.id]);
    await receiver.waitFor(6, 5_000, '/fine');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(receiver.to('/hang')).toHaveLength(1);
    const pending = await deliveriesOf(hanging.id);
    expect(pending).toHaveLength(4);
    expect(pending.every((line) => line.state === 'pending')).toBe(true);
  });
});

describe('alert channels without WEBHOOK_ALLOW_PRIVATE_NETWORKS', () => {
  const t = useTestApp('sqlite');
  const api = () => apiClient(t.app);
  let owner: SeededUser;
  let projectId: string;
  beforeAll(async () => {
    const seeded = await seed(t.services).user().verified().project('Guarded');
    owner = seeded.user;
    projectId = seeded.project.id;
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://10.1.2.3/hook',
    'http://192.168.0.10/hook',
    'http://172.16.5.5/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/hook',
    'http://[fd00:ec2::254]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:a9fe:a9fe]/hook',
    'http://0.0.0.0/hook',
    'http://100.64.0.1/hook',
    'http://localhost:3000/hook',
    'http://2130706433/hook',
  ])('refuses %s with 400 WEBHOOK_ADDRESS_REFUSED, storing nothing', async (url) => {
    const before = await snapshot(t.services);
    const response = await apiClient(t.app).post(`projects/${projectId}/alert-channels`, {
      token: owner.token,
      body: { type: 'webhook', name: 'inside', url },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response)).toMatchObject({
      errorCode: 'WEBHOOK_ADDRESS_REFUSED',
      message: expect.stringContaining('only public addresses'),
    });
    expect(await snapshot(t.services)).toBe(before);
  });

  it('accepts a public address', async () => {
    const response = await api().post(`projects/${projectId}/alert-channels`, {
      token: owner.token,
      body: { type: 'webhook', name: 'outside', url: 'https://93.184.215.14/hook' },
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('refuses at connection time a channel whose address became private (stored before the check)', async () => {
    const receiver = await startReceiver();
    try {
      // As if the name had resolved to a public address when saved: stored directly, past the save check.
      const id = newId();
      await t.services.db
        .insertInto('alert_channels')
        .values({
          id,
          project_id: projectId,
          type: 'webhook',
          name: 'rebound',
          url: `${receiver.url.replace('127.0.0.1', 'localhost')}/rebound`,
          secret: 'whsec_test',
          member_ids: '[]',
          created_at: new Date().toISOString(),
        })
        .execute();
      const sent = await api().post(`projects/${projectId}/alert-channels/${id}/test`, {
        token: owner.token,
      });
      expect(sent.statusCode).toBe(202);
      await t.services.alertChannels.flush();
      const log = AlertDeliveryListSchema.parse(
        (
          await api().get(`projects/${projectId}/alert-channels/${id}/deliveries`, { token: owner.token })
        ).json(),
      ).deliveries;
      const failed = log.find((line) => line.state === 'failed');
      expect(failed?.error).toMatch(/localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/);
      expect(failed?.statusCode).toBeNull();
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});
