import { ProjectListSchema, ProjectSchema } from '@polyflow/contracts/projects';
import { describe, expect, it } from 'vitest';
import { pageView, postBatch } from './ingestion/support.ts';
import { apiClient, errorOf } from './support/client.ts';
import { ENGINES, useTestApp } from './support/harness.ts';
import { seed } from './support/seed.ts';

describe.each(ENGINES)('projects on %s', (engine) => {
  const t = useTestApp(engine);
  const api = () => apiClient(t.app);

  it("creates and lists a user's projects", async () => {
    const user = await seed(t.services).user().verified();
    expect((await api().get('projects', { token: user.token })).json()).toEqual({ projects: [] });

    const created = await api().post('projects', { token: user.token, body: { name: '  My dapp  ' } });
    expect(created.statusCode).toBe(201);
    const project = ProjectSchema.parse(created.json());
    expect(project).toMatchObject({
      name: 'My dapp',
      apiKey: null,
      ownerId: user.id,
      whitelistedDomains: [],
    });
    expect(Date.parse(project.createdAt)).not.toBeNaN();
    await api().post('projects', { token: user.token, body: { name: 'Second' } });

    const list = ProjectListSchema.parse((await api().get('projects', { token: user.token })).json());
    expect(list.projects.map((p) => p.name)).toEqual(['My dapp', 'Second']);
  });

  it('creates, replaces and revokes an API key; a replaced key stops working at once', async () => {
    const { user, project } = await seed(t.services).user().verified().project();
    const changes: string[] = [];
    const stop = t.services.projects.onProjectChanged((id) => changes.push(id));

    const first = await api().post(`projects/${project.id}/api-key`, { token: user.token });
    expect(first.statusCode).toBe(200);
    const firstKey = ProjectSchema.parse(first.json()).apiKey;
    expect(firstKey).toMatch(/^pf_[0-9A-Za-z]{32}$/);
    expect(await t.services.projects.findProjectByApiKey(firstKey ?? '')).toEqual({
      id: project.id,
      whitelistedDomains: [],
      ignoredWalletCodes: [4001],
    });

    const replaced = await api().post(`projects/${project.id}/api-key`, { token: user.token });
    const secondKey = ProjectSchema.parse(replaced.json()).apiKey;
    expect(secondKey).toMatch(/^pf_[0-9A-Za-z]{32}$/);
    expect(secondKey).not.toBe(firstKey);
    expect(await t.services.projects.findProjectByApiKey(firstKey ?? '')).toBeNull();
    expect(await t.services.projects.findProjectByApiKey(secondKey ?? '')).not.toBeNull();

    const revoked = await api().delete(`projects/${project.id}/api-key`, { token: user.token });
    expect(revoked.statusCode).toBe(200);
    expect(ProjectSchema.parse(revoked.json()).apiKey).toBeNull();
    expect(await t.services.projects.findProjectByApiKey(secondKey ?? '')).toBeNull();

    stop();
    expect(changes).toEqual([project.id, project.id, project.id]);
  });

  it('accepts an empty JSON body or none on the body-less routes', async () => {
    const { user, project } = await seed(t.services).user().verified().project();
    const empty = await api().post(`projects/${project.id}/api-key`, { token: user.token, body: {} });
    expect(empty.statusCode).toBe(200);
    const blank = await api().post(`projects/${project.id}/api-key`, { token: user.token, payload: '' });
    expect(blank.statusCode).toBe(200);
  });

  it('adds and removes whitelisted domains, normalised, and tells ingestion', async () => {
    const { user, project } = await seed(t.services).user().verified().project().apiKey();
    const changes: string[] = [];
    const stop = t.services.projects.onProjectChanged((id) => changes.push(id));
    const add = (domain: string) =>
      api().patch(`projects/${project.id}/domains/add`, { token: user.token, body: { domain } });

    expect((await add('https://App.Example.com:8443/path')).json().whitelistedDomains).toEqual([
      'app.example.com',
    ]);
    expect((await add('*.example.com')).statusCode).toBe(200);
    expect((await add('münchen.de')).statusCode).toBe(200);
    const local = await add('localhost');
    expect(ProjectSchema.parse(local.json()).whitelistedDomains).toEqual([
      'app.example.com',
      '*.example.com',
      'xn--mnchen-3ya.de',
      'localhost',
    ]);
    expect(await t.services.projects.findProjectByApiKey(project.apiKey ?? '')).toEqual({
      id: project.id,
      whitelistedDomains: ['app.example.com', '*.example.com', 'xn--mnchen-3ya.de', 'localhost'],
      ignoredWalletCodes: [4001],
    });

    const duplicate = await add('http://APP.example.com/');
    expect(duplicate.statusCode).toBe(400);
    expect(errorOf(duplicate).errorCode).toBe('DOMAIN_ALREADY_WHITELISTED');

    const invalid = await add('not a domain');
    expect(invalid.statusCode).toBe(400);
    expect(errorOf(invalid)).toMatchObject({
      errorCode: 'INVALID_REQUEST_BODY',
      details: [{ path: 'domain', message: expect.any(String) }],
    });

    const removed = await api().patch(`projects/${project.id}/domains/delete`, {
      token: user.token,
      body: { domain: 'MÜNCHEN.de' },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().whitelistedDomains).toEqual(['app.example.com', '*.example.com', 'localhost']);

    const absent = await api().patch(`projects/${project.id}/domains/delete`, {
      token: user.token,
      body: { domain: 'never-added.example' },
    });
    expect(absent.statusCode).toBe(404);
    stop();
    expect(changes).toHaveLength(5);
  });

  it('deletes a project: its key stops working and it is gone from the list', async () => {
    const { user, project } = await seed(t.services).user().verified().project().apiKey().domain('a.example');
    const response = await api().delete(`projects/${project.id}`, { token: user.token });
    expect(response.statusCode).toBe(204);
    expect(await t.services.projects.findProjectByApiKey(project.apiKey ?? '')).toBeNull();
    expect((await api().get('projects', { token: user.token })).json().projects).toEqual([]);
    const domains = await t.services.db
      .selectFrom('project_domains')
      .selectAll()
      .where('project_id', '=', project.id)
      .execute();
    expect(domains).toEqual([]);
    expect((await api().delete(`projects/${project.id}`, { token: user.token })).statusCode).toBe(404);
  });

  it('deletes its events with a project: those loaded and those still in the ingestion log, no others', async () => {
    const owner = seed(t.services).user().verified();
    const { user, project } = await owner.project('Doomed').apiKey().domain('a.example');
    const { project: kept } = await owner.project('Kept').apiKey().domain('a.example');
    const send = (apiKey: string | null, path: string) =>
      postBatch(
        t.app,
        { apiKey: apiKey ?? '', events: [pageView({ path })] },
        { origin: 'https://a.example' },
      );
    expect((await send(project.apiKey, '/loaded')).statusCode).toBe(200);
    expect((await send(kept.apiKey, '/kept')).statusCode).toBe(200);
    await t.services.events.flush();
    // Acknowledged and most likely not loaded yet (the loader waits up to 3 s between loads): a later load
    // would bring it back if deletion ignored the ingestion log.
    expect((await send(project.apiKey, '/pending')).statusCode).toBe(200);

    expect((await api().delete(`projects/${project.id}`, { token: user.token })).statusCode).toBe(204);
    await t.services.events.flush();
    expect(await t.services.eventStore.projectEvents(project.id)).toEqual([]);
    expect((await t.services.eventStore.projectEvents(kept.id)).map((row) => row.path)).toEqual(['/kept']);
  });

  it("answers another user's project as absent (404) on every route, changing nothing", async () => {
    const { project } = await seed(t.services).user().verified().project().apiKey().domain('owner.example');
    const stranger = await seed(t.services).user().verified();
    const token = stranger.token;
    const attempts = [
      api().post(`projects/${project.id}/api-key`, { token }),
      api().delete(`projects/${project.id}/api-key`, { token }),
      api().patch(`projects/${project.id}/domains/add`, { token, body: { domain: 'evil.example' } }),
      api().patch(`projects/${project.id}/domains/delete`, { token, body: { domain: 'owner.example' } }),
      api().delete(`projects/${project.id}`, { token }),
      api().delete('projects/not-a-uuid', { token }),
      api().post('projects/00000000-0000-4000-8000-000000000000/api-key', { token }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).errorCode).toBe('RESOURCE_NOT_FOUND');
    }
    expect((await api().get('projects', { token })).json().projects).toEqual([]);
    await expect(t.services.projects.getProjectFor(stranger.id, project.id)).rejects.toMatchObject({
      status: 404,
    });
    const owned = await t.services.projects.getProjectFor(project.ownerId, project.id);
    expect(owned).toEqual(project);
  });

  it('requires a session on every project route', async () => {
    const { project } = await seed(t.services).user().verified().project();
    const attempts = [
      api().get('projects'),
      api().post('projects', { body: { name: 'x' } }),
      api().post(`projects/${project.id}/api-key`),
      api().delete(`projects/${project.id}/api-key`),
      api().patch(`projects/${project.id}/domains/add`, { body: { domain: 'a.example' } }),
      api().patch(`projects/${project.id}/domains/delete`, { body: { domain: 'a.example' } }),
      api().delete(`projects/${project.id}`),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(401);
      expect(errorOf(response).errorCode).toBe('BAD_AUTHENTICATION');
    }
  });

  it('ignores malformed API keys without asking the store', async () => {
    for (const key of ['', 'pf_short', `pf_${'a'.repeat(33)}`, `xx_${'a'.repeat(32)}`, "' OR 1=1 --"]) {
      expect(await t.services.projects.findProjectByApiKey(key)).toBeNull();
    }
  });
});
