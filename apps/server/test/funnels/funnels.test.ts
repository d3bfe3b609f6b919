import { FunnelListSchema, FunnelSchema, MAX_FUNNELS_PER_PROJECT } from '@polyflow/contracts/funnels';
import { describe, expect, it } from 'vitest';
import { graphqlClient } from '../analytics/graphql-client.ts';
import { apiClient, errorOf } from '../support/client.ts';
import { ENGINES, useTestApp } from '../support/harness.ts';
import { addMember, seed, snapshot } from '../support/seed.ts';

const VALID = {
  name: 'Pricing to swap',
  windowHours: 24,
  steps: [
    { kind: 'page', path: '/pricing/**' },
    { kind: 'event', name: 'swap', property: { key: 'pair', value: 'ETH/USDC' } },
    { kind: 'wallet_connected' },
    { kind: 'transaction', stage: 'confirmed' },
  ],
};
const step = (index: number) => ({ kind: 'event', name: `e${index}` });

describe.each(ENGINES)('saved funnels on %s', (engine) => {
  const t = useTestApp(engine);
  const api = () => apiClient(t.app);

  async function team() {
    const { user, project } = await seed(t.services).user().verified().project('Funnels');
    const viewer = await seed(t.services).user().verified();
    await addMember(t.services, project.id, viewer.id, 'viewer');
    return { user, project, viewer };
  }

  it('saves, lists, changes and deletes a funnel; every change audited; viewers and read tokens read', async () => {
    const { user, project, viewer } = await team();
    const url = `projects/${project.id}/funnels`;
    const created = await api().post(url, { token: user.token, body: VALID });
    expect(created.statusCode).toBe(201);
    const funnel = FunnelSchema.parse(created.json());
    expect(funnel).toMatchObject({ name: 'Pricing to swap', windowHours: 24, steps: VALID.steps });
    expect(funnel.createdBy).toBe(user.email);

    const listed = await api().get(url, { token: viewer.token });
    expect(FunnelListSchema.parse(listed.json()).funnels.map((f) => f.id)).toEqual([funnel.id]);
    const readToken = await t.services.readTokens.create(
      { id: user.id, email: user.email, ip: '127.0.0.1' },
      project.id,
      'BI',
    );
    const byToken = await api().get(`${url}/${funnel.id}`, { token: readToken.token });
    expect(byToken.statusCode).toBe(200);
    expect(byToken.json().id).toBe(funnel.id);

    const changed = await api().patch(`${url}/${funnel.id}`, {
      token: user.token,
      body: { name: 'Renamed', steps: [{ kind: 'wallet_connected' }, step(2)], windowHours: 720 },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      name: 'Renamed',
      windowHours: 720,
      steps: [{ kind: 'wallet_connected' }, step(2)],
    });

    // A viewer and a read token change nothing.
    const before = await snapshot(t.services);
    expect((await api().post(url, { token: viewer.token, body: VALID })).statusCode).toBe(403);
    expect((await api().delete(`${url}/${funnel.id}`, { token: viewer.token })).statusCode).toBe(403);
    expect((await api().post(url, { token: readToken.token, body: VALID })).statusCode).toBe(403);
    expect(await snapshot(t.services)).toBe(before);

    expect((await api().delete(`${url}/${funnel.id}`, { token: user.token })).statusCode).toBe(204);
    expect((await api().get(`${url}/${funnel.id}`, { token: user.token })).statusCode).toBe(404);
    const actions = await t.services.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'details'])
      .where('project_id', '=', project.id)
      .where('action', 'like', 'funnel.%')
      .orderBy('at')
      .execute();
    // Each names the funnel as it was then (the audit log shows that, not the id).
    expect(actions.map((row) => ({ ...row, details: JSON.parse(row.details) }))).toEqual([
      { action: 'funnel.create', target: funnel.id, details: { name: 'Pricing to swap' } },
      { action: 'funnel.update', target: funnel.id, details: { name: 'Renamed' } },
      { action: 'funnel.delete', target: funnel.id, details: { name: 'Renamed' } },
    ]);
  });

  it('refuses bad funnels with a 400 naming the field, storing nothing', async () => {
    const { user, project } = await team();
    const url = `projects/${project.id}/funnels`;
    const saved = FunnelSchema.parse((await api().post(url, { token: user.token, body: VALID })).json());
    const with_ = (change: Record<string, unknown>) => ({ ...VALID, ...change });
    const withStep = (bad: unknown) => with_({ steps: [bad, step(2)] });
    const cases: [string, unknown][] = [
      ['1 step', with_({ steps: [step(1)] })],
      ['9 steps', with_({ steps: Array.from({ length: 9 }, (_, index) => step(index + 1)) })],
      ['no steps', with_({ steps: [] })],
      ['window 0', with_({ windowHours: 0 })],
      ['window 721 hours', with_({ windowHours: 721 })],
      ['window 1.5 hours', with_({ windowHours: 1.5 })],
      ['window as text', with_({ windowHours: '24' })],
      ['empty name', with_({ name: '  ' })],
      ['name with NUL', with_({ name: 'a\u0000b' })],
      ['name with a newline', with_({ name: 'a\nb' })],
      ['name too long', with_({ name: 'x'.repeat(81) })],
      ['unknown step kind', withStep({ kind: 'goal', name: 'x' })],
      ['step without kind', withStep({ name: 'x' })],
      ['pattern without /', withStep({ kind: 'page', path: 'pricing' })],
      ['pattern with //', withStep({ kind: 'page', path: '/a//b' })],
      ['pattern with a trailing /', withStep({ kind: 'page', path: '/a/' })],
      ['* inside a segment', withStep({ kind: 'page', path: '/blog-*' })],
      ['*** segment', withStep({ kind: 'page', path: '/a/***' })],
      ['pattern with a query', withStep({ kind: 'page', path: '/a?b=1' })],
      ['pattern with a control character', withStep({ kind: 'page', path: '/a\u0007' })],
      ['pattern too long', withStep({ kind: 'page', path: `/${'a'.repeat(300)}` })],
      ['event name with a tab', withStep({ kind: 'event', name: 'a\tb' })],
      ['event name empty', withStep({ kind: 'event', name: '' })],
      ['event name of 65 characters', withStep({ kind: 'event', name: 'x'.repeat(65) })],
      ['property without value', withStep({ kind: 'event', name: 'a', property: { key: 'k' } })],
      ['property value not text', withStep({ kind: 'event', name: 'a', property: { key: 'k', value: 1 } })],
      ['unknown stage', withStep({ kind: 'transaction', stage: 'mined' })],
      ['unknown field in a step', withStep({ kind: 'wallet_connected', extra: 1 })],
      ['unknown field', with_({ owner: 'x' })],
    ];
    const before = await snapshot(t.services);
    for (const [label, body] of cases) {
      const created = await api().post(url, { token: user.token, body });
      expect(created.statusCode, label).toBe(400);
      expect(errorOf(created).errorCode, label).toBe('INVALID_REQUEST_BODY');
      const changed = await api().patch(`${url}/${saved.id}`, { token: user.token, body });
      expect(changed.statusCode, `PATCH ${label}`).toBe(400);
    }
    expect((await api().patch(`${url}/${saved.id}`, { token: user.token, body: {} })).statusCode).toBe(400);
    expect(await snapshot(t.services)).toBe(before);
    const message = errorOf(
      await api().post(url, { token: user.token, body: withStep({ kind: 'page', path: '/blog-*' }) }),
    );
    expect(JSON.stringify(message)).toMatch(/whole segments/);
  });

  it(`keeps at most ${MAX_FUNNELS_PER_PROJECT} funnels a project`, async () => {
    const { user, project } = await team();
    const url = `projects/${project.id}/funnels`;
    for (let index = 0; index < MAX_FUNNELS_PER_PROJECT; index++) {
      expect((await api().post(url, { token: user.token, body: with_name(`F${index}`) })).statusCode).toBe(
        201,
      );
    }
    const refused = await api().post(url, { token: user.token, body: with_name('One too many') });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toMatch(/at most 50 funnels/);
    expect((await api().get(url, { token: user.token })).json().funnels).toHaveLength(
      MAX_FUNNELS_PER_PROJECT,
    );
  });

  it("keeps another tenant's funnels absent (REST and GraphQL)", async () => {
    const { user, project } = await team();
    const stranger = await seed(t.services).user().verified().project('Theirs');
    const theirs = FunnelSchema.parse(
      (
        await api().post(`projects/${stranger.project.id}/funnels`, {
          token: stranger.user.token,
          body: VALID,
        })
      ).json(),
    );
    const before = await snapshot(t.services);
    // Their funnel under my project, and their project under my session: both absent.
    for (const [method, url] of [
      ['get', `projects/${project.id}/funnels/${theirs.id}`],
      ['patch', `projects/${project.id}/funnels/${theirs.id}`],
      ['delete', `projects/${project.id}/funnels/${theirs.id}`],
      ['get', `projects/${stranger.project.id}/funnels`],
      ['get', `projects/${stranger.project.id}/funnels/${theirs.id}`],
      ['delete', `projects/${stranger.project.id}/funnels/${theirs.id}`],
    ] as const) {
      const response =
        method === 'patch'
          ? await api().patch(url, { token: user.token, body: { name: 'Mine' } })
          : await api()[method](url, { token: user.token });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await snapshot(t.services)).toBe(before);
    const answer = await graphqlClient(t.app)(
      'query ($p: ID!, $f: ID!) { customFunnel(projectId: $p, funnelId: $f) { name } }',
      { p: project.id, f: theirs.id },
      { token: user.token },
    );
    expect(answer.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('deletes the funnels with their project', async () => {
    const { user, project } = await team();
    await api().post(`projects/${project.id}/funnels`, { token: user.token, body: VALID });
    expect((await api().delete(`projects/${project.id}`, { token: user.token })).statusCode).toBe(204);
    const left = await t.services.db
      .selectFrom('funnels')
      .selectAll()
      .where('project_id', '=', project.id)
      .execute();
    expect(left).toEqual([]);
  });
});

const with_name = (name: string) => ({ ...VALID, name });
