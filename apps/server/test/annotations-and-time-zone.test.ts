import { AnnotationListSchema, AnnotationSchema } from '@polyflow/contracts/annotations';
import { ProjectSchema } from '@polyflow/contracts/projects';
import { describe, expect, it } from 'vitest';
import { apiClient, errorOf } from './support/client.ts';
import { ENGINES, useTestApp } from './support/harness.ts';
import { addMember, seed, snapshot } from './support/seed.ts';

describe.each(ENGINES)('the project time zone and annotations on %s', (engine) => {
  const t = useTestApp(engine);
  const api = () => apiClient(t.app);

  async function withViewer() {
    const { user, project } = await seed(t.services).user().verified().project('Zoned');
    const viewer = await seed(t.services).user().verified();
    await addMember(t.services, project.id, viewer.id, 'viewer');
    return { user, project, viewer };
  }

  async function auditActions(projectId: string) {
    const rows = await t.services.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('project_id', '=', projectId)
      .orderBy('at')
      .execute();
    return rows.map((row) => [row.action, JSON.parse(row.details)]);
  }

  it('is UTC by default; admins set an IANA zone (audited); bad zones and viewers change nothing', async () => {
    const { user, project, viewer } = await withViewer();
    expect(project.timeZone).toBe('UTC');
    const set = await api().patch(`projects/${project.id}`, {
      token: user.token,
      body: { timeZone: 'Asia/Kolkata' },
    });
    expect(set.statusCode).toBe(200);
    expect(ProjectSchema.parse(set.json())).toMatchObject({ timeZone: 'Asia/Kolkata', retentionDays: null });
    // The same zone again records nothing new; ICU's former name is accepted as it is written.
    await api().patch(`projects/${project.id}`, { token: user.token, body: { timeZone: 'Asia/Kolkata' } });
    expect(await auditActions(project.id)).toContainEqual([
      'timezone.set',
      { from: 'UTC', to: 'Asia/Kolkata' },
    ]);
    expect((await auditActions(project.id)).filter(([action]) => action === 'timezone.set')).toHaveLength(1);

    const before = await snapshot(t.services);
    for (const body of [
      { timeZone: 'Mars/Olympus_Mons' },
      { timeZone: '' },
      { timeZone: 'utc' },
      { timeZone: '+05:30' },
      { timeZone: 'Europe/Berlin\u0000' },
      { timeZone: 'x'.repeat(100) },
      { timeZone: 5 },
      { timeZone: ['Europe/Berlin'] },
      { retentionDays: 30, timeZone: 'Nowhere/Nothing' },
      {},
    ]) {
      const response = await api().patch(`projects/${project.id}`, { token: user.token, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).errorCode).toBe('INVALID_REQUEST_BODY');
    }
    const refused = await api().patch(`projects/${project.id}`, {
      token: viewer.token,
      body: { timeZone: 'Europe/Berlin' },
    });
    expect(refused.statusCode).toBe(403);
    expect(await snapshot(t.services)).toBe(before);
    const listed = (await api().get('projects', { token: viewer.token })).json().projects;
    expect(listed[0].timeZone).toBe('Asia/Kolkata');
  });

  it('annotations: admins write, members read, by start date; each change audited', async () => {
    const { user, project, viewer } = await withViewer();
    const post = (body: unknown, token = user.token) =>
      api().post(`projects/${project.id}/annotations`, { token, body });
    const deploy = await post({ text: 'Deployed v2.1', startDate: '2026-03-29' });
    expect(deploy.statusCode).toBe(201);
    const created = AnnotationSchema.parse(deploy.json());
    expect(created).toMatchObject({
      text: 'Deployed v2.1',
      startDate: '2026-03-29',
      endDate: null,
      createdBy: user.email,
    });
    const campaign = AnnotationSchema.parse(
      (
        await post({
          text: '  Spring campaign\nwith a second line ',
          startDate: '2026-03-01',
          endDate: '2026-03-31',
        })
      ).json(),
    );
    expect(campaign.text).toBe('Spring campaign\nwith a second line');

    const read = await api().get(`projects/${project.id}/annotations`, { token: viewer.token });
    expect(read.statusCode).toBe(200);
    expect(AnnotationListSchema.parse(read.json()).annotations.map((a) => a.id)).toEqual([
      campaign.id,
      created.id,
    ]);

    const changed = await api().patch(`projects/${project.id}/annotations/${created.id}`, {
      token: user.token,
      body: { endDate: '2026-03-30', text: 'Deployed v2.1 (rolled out)' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ endDate: '2026-03-30', text: 'Deployed v2.1 (rolled out)' });
    const cleared = await api().patch(`projects/${project.id}/annotations/${created.id}`, {
      token: user.token,
      body: { endDate: null },
    });
    expect(cleared.json().endDate).toBeNull();
    const removed = await api().delete(`projects/${project.id}/annotations/${campaign.id}`, {
      token: user.token,
    });
    expect(removed.statusCode).toBe(204);
    const left = (await api().get(`projects/${project.id}/annotations`, { token: user.token })).json();
    expect(left.annotations.map((a: { id: string }) => a.id)).toEqual([created.id]);
    // Each names the note by its text (the audit log shows that, not the id).
    expect(
      (await auditActions(project.id)).map(([action, details]) => [action, details.name ?? null]),
    ).toEqual([
      ['project.create', null],
      ['annotation.create', created.text],
      ['annotation.create', 'Spring campaign\nwith a second line'],
      ['annotation.update', 'Deployed v2.1 (rolled out)'],
      ['annotation.update', 'Deployed v2.1 (rolled out)'],
      ['annotation.delete', 'Spring campaign\nwith a second line'],
    ]);
  });

  it('annotations: bad input, viewers, strangers and other projects’ ids change nothing', async () => {
    const { user, project, viewer } = await withViewer();
    const { user: stranger, project: foreign } = await seed(t.services).user().verified().project('Foreign');
    const theirs = AnnotationSchema.parse(
      (
        await api().post(`projects/${foreign.id}/annotations`, {
          token: stranger.token,
          body: { text: 'Theirs', startDate: '2026-01-01' },
        })
      ).json(),
    );
    const mine = AnnotationSchema.parse(
      (
        await api().post(`projects/${project.id}/annotations`, {
          token: user.token,
          body: { text: 'Mine', startDate: '2026-01-01' },
        })
      ).json(),
    );
    const before = await snapshot(t.services);
    for (const body of [
      {},
      { text: '', startDate: '2026-01-01' },
      { text: '   ', startDate: '2026-01-01' },
      { text: 'x'.repeat(281), startDate: '2026-01-01' },
      { text: 'bell\u0007', startDate: '2026-01-01' },
      { text: 'ok', startDate: '2026-02-30' },
      { text: 'ok', startDate: '2026-1-1' },
      { text: 'ok', startDate: '1969-12-31' },
      { text: 'ok', startDate: '2026-03-02', endDate: '2026-03-01' },
      { text: 'ok', startDate: '2026-03-02', color: 'red' },
      { text: { nested: true }, startDate: '2026-03-02' },
    ]) {
      const response = await api().post(`projects/${project.id}/annotations`, { token: user.token, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).errorCode).toBe('INVALID_REQUEST_BODY');
    }
    const badChange = await api().patch(`projects/${project.id}/annotations/${mine.id}`, {
      token: user.token,
      body: { endDate: '2025-12-31' },
    });
    expect(badChange.statusCode).toBe(400);
    expect(
      (
        await api().post(`projects/${project.id}/annotations`, {
          token: viewer.token,
          body: { text: 'Viewer', startDate: '2026-01-01' },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await api().delete(`projects/${project.id}/annotations/${mine.id}`, { token: viewer.token }))
        .statusCode,
    ).toBe(403);
    // Another project's annotation through mine, and mine by a stranger: absent.
    for (const [url, token] of [
      [`projects/${project.id}/annotations/${theirs.id}`, user.token],
      [`projects/${project.id}/annotations/not-an-id`, user.token],
      [`projects/${project.id}/annotations/${mine.id}`, stranger.token],
    ] as const) {
      const response = await api().delete(url, { token });
      expect(response.statusCode, url).toBe(404);
      expect(errorOf(response).errorCode).toBe('RESOURCE_NOT_FOUND');
    }
    expect(
      (await api().get(`projects/${project.id}/annotations`, { token: stranger.token })).statusCode,
    ).toBe(404);
    expect(await snapshot(t.services)).toBe(before);
  });

  it('annotations: dates from 2015-01-01 to a year after today in the project’s zone, refused outside', async () => {
    // 12:00 UTC on 30 November 2026 is already 1 December in Kiritimati (UTC+14).
    t.clock.setTo(Date.parse('2026-11-30T12:00:00Z'));
    try {
      const { user, project } = await seed(t.services).user().verified().project('Bounded');
      const post = (body: object) =>
        api().post(`projects/${project.id}/annotations`, { token: user.token, body });
      const edge = await post({ text: 'Edge', startDate: '2015-01-01' });
      expect(edge.statusCode, edge.body).toBe(201);
      const mine = AnnotationSchema.parse(edge.json());
      expect((await post({ text: 'Planned', startDate: '2027-11-30' })).statusCode).toBe(201);
      const before = await snapshot(t.services);
      for (const [body, path] of [
        [{ text: 'Typo', startDate: '9999-12-31' }, 'startDate'],
        [{ text: 'Old', startDate: '2014-12-31' }, 'startDate'],
        [{ text: 'Long', startDate: '2026-11-30', endDate: '2027-12-01' }, 'endDate'],
      ] as const) {
        const response = await post(body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(errorOf(response)).toMatchObject({
          errorCode: 'INVALID_REQUEST_BODY',
          message: `${path} must be from 2015-01-01 to 2027-11-30 (a year after today).`,
          details: [{ path }],
        });
      }
      const change = await api().patch(`projects/${project.id}/annotations/${mine.id}`, {
        token: user.token,
        body: { startDate: '9999-12-31' },
      });
      expect(change.statusCode).toBe(400);
      expect(errorOf(change).message).toContain('startDate must be from 2015-01-01');
      expect(await snapshot(t.services)).toBe(before);

      await api().patch(`projects/${project.id}`, {
        token: user.token,
        body: { timeZone: 'Pacific/Kiritimati' },
      });
      expect((await post({ text: 'Local', startDate: '2027-12-01' })).statusCode).toBe(201);
      expect((await post({ text: 'Too far', startDate: '2027-12-02' })).statusCode).toBe(400);
    } finally {
      t.clock.reset();
    }
  });
});
