import { GoalListSchema, GoalSchema, MAX_GOALS_PER_PROJECT } from '@polyflow/contracts/goals';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { apiClient, errorOf } from '../support/client.ts';
import { ENGINES, useTestApp } from '../support/harness.ts';
import { addMember, seed, snapshot } from '../support/seed.ts';

describe.each(ENGINES)('goals on %s', (engine) => {
  const t = useTestApp(engine);
  const api = () => apiClient(t.app);

  async function auditActions(projectId: string) {
    const rows = await t.services.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'details'])
      .where('project_id', '=', projectId)
      .orderBy('at')
      .execute();
    return rows.map((row) => [row.action, row.target, JSON.parse(row.details).name]);
  }

  it('adds, lists, replaces and deletes goals, each change audited', async () => {
    const { user, project } = await seed(t.services).user().verified().project('Goals');
    const url = `projects/${project.id}/goals`;
    const created = await api().post(url, {
      token: user.token,
      body: {
        name: 'Pro signup',
        kind: 'event',
        eventName: 'signup',
        propertyKey: 'plan',
        propertyValue: 'pro',
      },
    });
    expect(created.statusCode).toBe(201);
    const goal = GoalSchema.parse(created.json());
    expect(goal).toMatchObject({
      name: 'Pro signup',
      kind: 'event',
      eventName: 'signup',
      propertyKey: 'plan',
      propertyValue: 'pro',
      pathPattern: null,
      createdBy: user.email,
    });
    const path = await api().post(url, {
      token: user.token,
      body: { name: 'Docs', kind: 'path', pathPattern: '/docs/*/intro' },
    });
    expect(path.statusCode).toBe(201);

    const changed = await api().put(`${url}/${goal.id}`, {
      token: user.token,
      body: { name: 'Any docs', kind: 'path', pathPattern: '/docs/**' },
    });
    expect(changed.statusCode).toBe(200);
    expect(GoalSchema.parse(changed.json())).toMatchObject({
      id: goal.id,
      name: 'Any docs',
      kind: 'path',
      eventName: null,
      propertyKey: null,
      propertyValue: null,
      pathPattern: '/docs/**',
    });
    const listed = GoalListSchema.parse((await api().get(url, { token: user.token })).json());
    expect(listed.goals.map((listedGoal) => listedGoal.name)).toEqual(['Any docs', 'Docs']);

    expect((await api().delete(`${url}/${goal.id}`, { token: user.token })).statusCode).toBe(204);
    expect((await api().delete(`${url}/${goal.id}`, { token: user.token })).statusCode).toBe(404);
    expect(await auditActions(project.id)).toEqual(
      expect.arrayContaining([
        // Each names the goal as it was then (the audit log shows that, not the id).
        ['goal.create', goal.id, 'Pro signup'],
        ['goal.update', goal.id, 'Any docs'],
        ['goal.delete', goal.id, 'Any docs'],
      ]),
    );
  });

  it('lists goals made in the same millisecond in the order they were made', async () => {
    const { user, project } = await seed(t.services).user().verified().project('Same millisecond');
    const url = `projects/${project.id}/goals`;
    // The clock stands still: every goal has the same created_at, as a script's quick creations can.
    t.clock.setTo(Date.now());
    try {
      const names = ['Zeta', 'Alpha', 'Mu', 'Beta', 'Omega', 'Delta'];
      for (const name of names) {
        const created = await api().post(url, {
          token: user.token,
          body: { name, kind: 'path', pathPattern: `/${name}` },
        });
        expect(created.statusCode).toBe(201);
      }
      const { goals: listed } = GoalListSchema.parse((await api().get(url, { token: user.token })).json());
      expect(listed.map((goal) => goal.name)).toEqual(names);
      expect(new Set(listed.map((goal) => goal.createdAt)).size).toBe(1);
    } finally {
      t.clock.reset();
    }
  });

  it('refuses invalid patterns and definitions with a 4xx and stores nothing', async () => {
    const { user, project } = await seed(t.services).user().verified().project('Bad');
    const url = `projects/${project.id}/goals`;
    const before = await snapshot(t.services);
    for (const pathPattern of ['docs', '/docs//intro', '/docs/', '/docs-*', '/a?b=1', '/a#top', '/a b']) {
      const response = await api().post(url, {
        token: user.token,
        body: { name: 'P', kind: 'path', pathPattern },
      });
      expect(response.statusCode, pathPattern).toBe(400);
      expect(errorOf(response).errorCode, pathPattern).toBe('GOAL_PATTERN_INVALID');
    }
    for (const body of [
      { name: '', kind: 'path', pathPattern: '/' },
      { name: '   ', kind: 'path', pathPattern: '/' },
      { name: 'x'.repeat(65), kind: 'path', pathPattern: '/' },
      { name: 'Tab\there', kind: 'path', pathPattern: '/' },
      { name: 'Nul\u0000', kind: 'event', eventName: 'signup' },
      { name: 'E', kind: 'event', eventName: 'sign\u0007up' },
      { name: 'E', kind: 'event', eventName: 'signup', propertyKey: 'plan' },
      { name: 'E', kind: 'event', eventName: 'signup', propertyValue: 'pro' },
      { name: 'E', kind: 'event', eventName: 'signup', propertyKey: 'plan', propertyValue: 'p\u0000' },
      { name: 'E', kind: 'event', eventName: 'x'.repeat(65) },
      { name: 'P', kind: 'path', pathPattern: `/${'a'.repeat(300)}` },
      { name: 'P', kind: 'path', pathPattern: '/a\u0000' },
      { name: 'P', kind: 'path' },
      { name: 'P', kind: 'path', pathPattern: '/', eventName: 'signup' },
      { name: 'K', kind: 'funnel' },
      { name: 'K' },
      [],
    ]) {
      const response = await api().post(url, { token: user.token, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).errorCode).toBe('INVALID_REQUEST_BODY');
    }
    expect(await snapshot(t.services)).toBe(before);
  });

  it('refuses the 51st goal, an unknown goal id and a viewer; others see the project as absent', async () => {
    const { user, project } = await seed(t.services).user().verified().project('Full');
    const stranger = await seed(t.services).user().verified();
    const viewer = await seed(t.services).user().verified();
    await addMember(t.services, project.id, viewer.id, 'viewer');
    const url = `projects/${project.id}/goals`;
    const ids: string[] = [];
    for (let index = 0; index < MAX_GOALS_PER_PROJECT; index++) {
      const response = await api().post(url, {
        token: user.token,
        body: { name: `Goal ${index}`, kind: 'event', eventName: `event_${index}` },
      });
      expect(response.statusCode).toBe(201);
      ids.push(response.json().id);
    }
    const { user: other, project: otherProject } = await seed(t.services).user().verified().project('Other');
    const before = await snapshot(t.services);
    const full = await api().post(url, {
      token: user.token,
      body: { name: 'One more', kind: 'path', pathPattern: '/' },
    });
    expect(full.statusCode).toBe(400);
    expect(errorOf(full).errorCode).toBe('GOAL_LIMIT');

    const body = { name: 'X', kind: 'path', pathPattern: '/' };
    for (const goalId of [newId(), 'not-an-id']) {
      const put = await api().put(`${url}/${goalId}`, { token: user.token, body });
      expect(put.statusCode).toBe(404);
      expect(errorOf(put).errorCode).toBe('RESOURCE_NOT_FOUND');
    }
    const viewed = await api().get(url, { token: viewer.token });
    expect(viewed.statusCode).toBe(200);
    expect((await api().post(url, { token: viewer.token, body })).statusCode).toBe(403);
    expect((await api().delete(`${url}/${ids[0]}`, { token: viewer.token })).statusCode).toBe(403);
    for (const response of [
      await api().get(url, { token: stranger.token }),
      await api().post(url, { token: stranger.token, body }),
      await api().put(`${url}/${ids[0]}`, { token: stranger.token, body }),
      await api().delete(`${url}/${ids[0]}`, { token: stranger.token }),
    ]) {
      expect(response.statusCode).toBe(404);
    }
    // Another project's goal id under one's own project is absent too.
    const moved = await api().put(`projects/${otherProject.id}/goals/${ids[0]}`, {
      token: other.token,
      body,
    });
    expect(moved.statusCode).toBe(404);
    expect(await snapshot(t.services)).toBe(before);
  });
});
