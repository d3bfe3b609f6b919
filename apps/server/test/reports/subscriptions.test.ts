import { ReportSubscriptionListSchema, ReportSubscriptionSchema } from '@polyflow/contracts/reports';
import { beforeAll, describe, expect, it } from 'vitest';
import { unsubscribeToken } from '../../src/modules/reports/unsubscribe-token.ts';
import { apiClient, errorOf } from '../support/client.ts';
import { ENGINES, useTestApp } from '../support/harness.ts';
import { addMember, type SeededUser, seed, snapshot } from '../support/seed.ts';

/**
 * Report choices (docs/reports.md): every member listed, off by default; each member sets their own;
 * the emailed link turns one kind off without a session; a forged or damaged link changes nothing; a member
 * who leaves gets no report.
 */
describe.each(ENGINES)('report subscriptions on %s', (engine) => {
  const t = useTestApp(engine);
  const api = () => apiClient(t.app);
  let owner: SeededUser;
  let viewer: SeededUser;
  let stranger: SeededUser;
  let projectId: string;

  async function team() {
    const seeded = await seed(t.services).user().verified().project('Reported');
    const member = await seed(t.services).user().verified().build();
    await addMember(t.services, seeded.project.id, member.id, 'viewer');
    return { owner: seeded.user, viewer: member, projectId: seeded.project.id };
  }

  beforeAll(async () => {
    ({ owner, viewer, projectId } = await team());
    stranger = await seed(t.services).user().verified().build();
  });

  const list = async (token: string) =>
    ReportSubscriptionListSchema.parse(
      (await api().get(`projects/${projectId}/report-subscriptions`, { token })).json(),
    ).reportSubscriptions;

  it('lists every member, both kinds off until chosen', async () => {
    const { owner: o, viewer: v, projectId: id } = await team();
    const response = await api().get(`projects/${id}/report-subscriptions`, { token: v.token });
    expect(response.statusCode).toBe(200);
    expect(ReportSubscriptionListSchema.parse(response.json()).reportSubscriptions).toEqual([
      { userId: o.id, email: o.email, weekly: false, monthly: false },
      { userId: v.id, email: v.email, weekly: false, monthly: false },
    ]);
  });

  it('lets any member, a viewer too, set their own choice, and shows it to the others', async () => {
    const response = await api().put(`projects/${projectId}/report-subscriptions/me`, {
      token: viewer.token,
      body: { weekly: true, monthly: true },
    });
    expect(response.statusCode).toBe(200);
    expect(ReportSubscriptionSchema.parse(response.json())).toEqual({
      userId: viewer.id,
      email: viewer.email,
      weekly: true,
      monthly: true,
    });
    expect((await list(owner.token)).find((row) => row.userId === viewer.id)).toMatchObject({
      weekly: true,
      monthly: true,
    });
    const again = await api().put(`projects/${projectId}/report-subscriptions/me`, {
      token: viewer.token,
      body: { weekly: false, monthly: true },
    });
    expect(again.json()).toMatchObject({ weekly: false, monthly: true });
  });

  it('refuses bad bodies and non-members, writing nothing', async () => {
    const before = await snapshot(t.services);
    for (const body of [
      { weekly: true },
      { weekly: 'yes', monthly: false },
      { weekly: true, monthly: true, daily: true },
      [],
    ]) {
      const response = await api().put(`projects/${projectId}/report-subscriptions/me`, {
        token: owner.token,
        body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).errorCode).toBe('INVALID_REQUEST_BODY');
    }
    const foreign = await api().put(`projects/${projectId}/report-subscriptions/me`, {
      token: stranger.token,
      body: { weekly: true, monthly: true },
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await api().get(`projects/${projectId}/report-subscriptions`, { token: stranger.token })).statusCode,
    ).toBe(404);
    expect(
      (await api().get(`projects/not-a-uuid/report-subscriptions`, { token: owner.token })).statusCode,
    ).toBe(404);
    expect(await snapshot(t.services)).toBe(before);
  });

  describe('the unsubscribe link', () => {
    const link = (token: string, accept = 'text/html') =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/reports/unsubscribe?token=${encodeURIComponent(token)}`,
        headers: { accept },
      });

    it('turns off the one kind it names, without a session, and says so', async () => {
      const { owner: o, projectId: id } = await team();
      await api().put(`projects/${id}/report-subscriptions/me`, {
        token: o.token,
        body: { weekly: true, monthly: true },
      });
      const token = unsubscribeToken(t.config.jwtSecret, { projectId: id, userId: o.id, kind: 'weekly' });
      const response = await link(token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain(
        `${o.email} will no longer get weekly reports of the project &#34;Reported&#34;.`,
      );
      const rows = ReportSubscriptionListSchema.parse(
        (await api().get(`projects/${id}/report-subscriptions`, { token: o.token })).json(),
      ).reportSubscriptions;
      expect(rows.find((row) => row.userId === o.id)).toMatchObject({ weekly: false, monthly: true });
      // Following it again changes nothing and says it was already off.
      const again = await link(token);
      expect(again.statusCode).toBe(200);
      expect(again.body).toContain('were already off');
    });

    it('refuses forged, damaged and foreign links with a 400 page, changing nothing', async () => {
      const { owner: o, projectId: id } = await team();
      await api().put(`projects/${id}/report-subscriptions/me`, {
        token: o.token,
        body: { weekly: true, monthly: true },
      });
      const good = unsubscribeToken(t.config.jwtSecret, { projectId: id, userId: o.id, kind: 'weekly' });
      const [version, project, user, kind, signature] = good.split('.') as [
        string,
        string,
        string,
        string,
        string,
      ];
      const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
      const bad = [
        '',
        'garbage',
        `${version}.${project}.${user}.${kind}.${flipped}`,
        // Another kind, project or member with this link's signature.
        `${version}.${project}.${user}.m.${signature}`,
        `${version}.${projectId}.${user}.${kind}.${signature}`,
        `${version}.${project}.${viewer.id}.${kind}.${signature}`,
        `r2.${project}.${user}.${kind}.${signature}`,
        `${good}.extra`,
        `${good}=`,
        unsubscribeToken('another server secret', { projectId: id, userId: o.id, kind: 'weekly' }),
        'x'.repeat(5000),
      ];
      const before = await snapshot(t.services);
      for (const token of bad) {
        const response = await link(token);
        expect(response.statusCode, token).toBe(400);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.body).toContain('REPORT_LINK_INVALID');
      }
      const json = await link('garbage', 'application/json');
      expect(json.statusCode).toBe(400);
      expect(errorOf(json).errorCode).toBe('REPORT_LINK_INVALID');
      const missing = await t.app.inject({ method: 'GET', url: '/api/v1/reports/unsubscribe' });
      expect(missing.statusCode).toBe(400);
      expect(await snapshot(t.services)).toBe(before);
    });
  });

  it('marks a report sent only with its email in the outbox: a failure in between leaves neither, and the next pass sends it once', async () => {
    const { owner: o, projectId: id } = await team();
    await api().put(`projects/${id}/report-subscriptions/me`, {
      token: o.token,
      body: { weekly: true, monthly: false },
    });
    const { mail, db } = t.services;
    const outbox = async () => (await db.selectFrom('mail_outbox').select('id').execute()).length;
    const waiting = await outbox();
    const original = mail.enqueueWithin;
    // The email is written, then the process fails before the transaction commits.
    mail.enqueueWithin = async (trx, email) => {
      await original(trx, email);
      throw new Error('died mid-send');
    };
    try {
      await expect(t.services.reports.sendNow(id, 'weekly')).rejects.toThrow('died mid-send');
    } finally {
      mail.enqueueWithin = original;
    }
    expect(await outbox()).toBe(waiting);
    const [row] = await db.selectFrom('report_sends').selectAll().where('project_id', '=', id).execute();
    expect(row).toMatchObject({ state: 'claimed', sent_at: null });

    expect(await t.services.reports.sendNow(id, 'weekly')).toMatchObject({ sent: 1 });
    await t.mail.waitFor(o.email, { subject: /Weekly report for Reported/ });
    expect(await t.services.reports.sendNow(id, 'weekly')).toMatchObject({ sent: 0, alreadySent: 1 });
    await t.services.mail.flush();
    expect(t.mail.pendingFor(o.email)).toEqual([]);
  });

  it("reports a project's local week: its period starts at local midnight of the project's zone", async () => {
    const { owner: o, projectId: id } = await team();
    const zoned = await api().patch(`projects/${id}`, { token: o.token, body: { timeZone: 'Asia/Kolkata' } });
    expect(zoned.statusCode).toBe(200);
    await api().put(`projects/${id}/report-subscriptions/me`, {
      token: o.token,
      body: { weekly: true, monthly: false },
    });
    expect(await t.services.reports.sendNow(id, 'weekly')).toMatchObject({ sent: 1 });
    const [row] = await t.services.db
      .selectFrom('report_sends')
      .selectAll()
      .where('project_id', '=', id)
      .execute();
    // Monday 00:00 in India (UTC+5:30) is Sunday 18:30 UTC.
    const start = new Date(row?.period_start ?? '');
    expect([start.getUTCDay(), start.getUTCHours(), start.getUTCMinutes()]).toEqual([0, 18, 30]);
  });

  it('sends nothing to a member who left, and forgets their choice', async () => {
    const { owner: o, viewer: v, projectId: id } = await team();
    // Removed by another node whose clean-up of their choice never ran: no longer a member is enough.
    const removed = await seed(t.services).user().verified().build();
    await addMember(t.services, id, removed.id, 'viewer');
    for (const member of [o, v, removed]) {
      await api().put(`projects/${id}/report-subscriptions/me`, {
        token: member.token,
        body: { weekly: true, monthly: true },
      });
    }
    const left = await api().delete(`projects/${id}/members/${v.id}`, { token: v.token });
    expect(left.statusCode).toBe(204);
    await t.services.db
      .deleteFrom('project_members')
      .where('project_id', '=', id)
      .where('user_id', '=', removed.id)
      .execute();
    const outcome = await t.services.reports.sendNow(id, 'weekly');
    expect(outcome).toMatchObject({ subscribers: 1, sent: 1 });
    const email = await t.mail.waitFor(o.email, { subject: /Weekly report for Reported/ });
    // A project without a single event: zeros, no rate, nothing to compare, and it says so.
    expect(email.text).toContain(
      'Visits: 0 (—)\nUsers: 0 (—)\nConnected wallets: 0 (—)\nTransactions: 0 (—)\nTransaction fail rate: — (—)',
    );
    expect(email.text).toContain('Top sources (visits):\n  No visits came with a UTM source.');
    expect(email.text).toContain('Top incidents (occurrences):\n  No incidents.');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.mail.pendingFor(v.email)).toEqual([]);
    expect(t.mail.pendingFor(removed.email)).toEqual([]);
    // Leaving through the API also drops their choice: joining again starts with both off.
    const rows = await t.services.db
      .selectFrom('report_subscriptions')
      .select('user_id')
      .where('project_id', '=', id)
      .execute();
    expect(rows.map((row) => row.user_id).sort()).toEqual([o.id, removed.id].sort());
  });
});
