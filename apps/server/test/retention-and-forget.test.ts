import { ProjectSchema } from '@polyflow/contracts/projects';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../src/reading/time-range.ts';
import { pageView, postBatch, storedEvents } from './ingestion/support.ts';
import { apiClient, errorOf } from './support/client.ts';
import { ENGINES, useTestApp } from './support/harness.ts';
import { seed } from './support/seed.ts';

const WALLET = '0xAbCdEf0123456789abcdef0123456789ABCDEF01';
const OTHER_WALLET = '0x2222222222222222222222222222222222222222';

describe.each(ENGINES)('retention and forgetting on %s', (engine) => {
  const t = useTestApp(engine);
  const api = () => apiClient(t.app);

  async function projectWith(name: string) {
    return seed(t.services).user().verified().project(name).apiKey().domain('app.example.com');
  }
  async function send(apiKey: string | null, events: Parameters<typeof pageView>[0][]) {
    const response = await postBatch(t.app, { apiKey: apiKey ?? '', events: events.map((e) => pageView(e)) });
    expect(response.statusCode).toBe(200);
  }

  it('sets, shows and clears a retention; refuses bad values, other users and no session', async () => {
    const { user, project } = await projectWith('Kept for a month');
    expect(project.retentionDays).toBeNull();
    const set = await api().patch(`projects/${project.id}`, {
      token: user.token,
      body: { retentionDays: 30 },
    });
    expect(set.statusCode).toBe(200);
    expect(ProjectSchema.parse(set.json()).retentionDays).toBe(30);
    const listed = (await api().get('projects', { token: user.token })).json().projects;
    expect(listed[0].retentionDays).toBe(30);
    expect(
      (
        await api().patch(`projects/${project.id}`, { token: user.token, body: { retentionDays: 3650 } })
      ).json().retentionDays,
    ).toBe(3650);

    for (const body of [
      {},
      { retentionDays: 0 },
      { retentionDays: -1 },
      { retentionDays: 3651 },
      { retentionDays: 1.5 },
      { retentionDays: '30' },
      { retentionDays: 30, name: 'x' },
    ]) {
      const response = await api().patch(`projects/${project.id}`, { token: user.token, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).errorCode).toBe('INVALID_REQUEST_BODY');
    }
    const stranger = await seed(t.services).user().verified();
    const foreign = await api().patch(`projects/${project.id}`, {
      token: stranger.token,
      body: { retentionDays: 1 },
    });
    expect(foreign.statusCode).toBe(404);
    expect(errorOf(foreign).errorCode).toBe('RESOURCE_NOT_FOUND');
    expect((await api().patch(`projects/${project.id}`, { body: { retentionDays: 1 } })).statusCode).toBe(
      401,
    );
    expect((await t.services.projects.getProjectFor(user.id, project.id)).retentionDays).toBe(3650);

    const forever = await api().patch(`projects/${project.id}`, {
      token: user.token,
      body: { retentionDays: null },
    });
    expect(ProjectSchema.parse(forever.json()).retentionDays).toBeNull();
  });

  it("deletes each project's events older than its retention, and only those (fixed clock)", async () => {
    const owner = seed(t.services).user().verified();
    const { user, project: limited } = await owner.project('Seven days').apiKey().domain('app.example.com');
    const { project: forever } = await owner.project('Forever').apiKey().domain('app.example.com');
    const now = t.clock().getTime();
    const ages = { old: now - 10 * DAY_MS, edge: now - 7 * DAY_MS + 60_000, recent: now - 3_600_000 };
    for (const project of [limited, forever]) {
      await send(
        project.apiKey,
        Object.entries(ages).map(([path, ts]) => ({ ts, path: `/${path}` })),
      );
    }
    await api().patch(`projects/${limited.id}`, { token: user.token, body: { retentionDays: 7 } });
    await t.services.events.flush();

    let results = await t.services.projects.applyRetention();
    expect(results.find((result) => result.projectId === limited.id)).toEqual({
      projectId: limited.id,
      deleted: 1,
    });
    expect(results.some((result) => result.projectId === forever.id)).toBe(false);
    const paths = async (id: string) => (await storedEvents(t.services, id)).map((row) => row.path).sort();
    expect(await paths(limited.id)).toEqual(['/edge', '/recent']);
    expect(await paths(forever.id)).toEqual(['/edge', '/old', '/recent']);

    // Two minutes later the edge event is past seven days; the next pass takes it, and nothing else.
    t.clock.advance(120_000);
    try {
      results = await t.services.projects.applyRetention();
    } finally {
      t.clock.reset();
    }
    expect(results.find((result) => result.projectId === limited.id)?.deleted).toBe(1);
    expect(await paths(limited.id)).toEqual(['/recent']);
    expect(await paths(forever.id)).toEqual(['/edge', '/old', '/recent']);
  });

  it('forgets a wallet: every event carrying it, those not loaded yet included, and says how many', async () => {
    const { user, project } = await projectWith('Forget a wallet');
    const { project: other } = await projectWith('Same wallet elsewhere');
    const connect = { type: 'wallet_connected' as const, wallet: { address: WALLET }, path: '/connect' };
    await send(project.apiKey, [
      connect,
      { path: '/plain' },
      { path: '/other', wallet: { address: OTHER_WALLET } },
    ]);
    await send(other.apiKey, [connect]);
    await t.services.events.flush();
    // Acknowledged, most likely still in the ingestion log: forgetting must reach it too.
    await send(project.apiKey, [{ path: '/pending', wallet: { address: WALLET.toLowerCase() } }]);
    await postBatch(t.app, {
      apiKey: project.apiKey ?? '',
      events: [
        {
          ...pageView({ path: '/tx' }),
          type: 'tx',
          txId: 'tx-1',
          stage: 'requested',
          kind: 'coin',
          from: WALLET,
        } as never,
      ],
    });

    const response = await api().post(`projects/${project.id}/forget`, {
      token: user.token,
      body: { wallet: WALLET.toUpperCase().replace('0X', '0x') },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deleted: 3 });
    const left = await storedEvents(t.services, project.id);
    expect(left.map((row) => row.path).sort()).toEqual(['/other', '/plain']);
    expect((await storedEvents(t.services, other.id)).map((row) => row.path)).toEqual(['/connect']);

    const again = await api().post(`projects/${project.id}/forget`, {
      token: user.token,
      body: { wallet: WALLET },
    });
    expect(again.json()).toEqual({ deleted: 0 });
  });

  it('forgets an SDK user: every event of that user id, no other', async () => {
    const { user, project } = await projectWith('Forget a user');
    await send(project.apiKey, [
      { userId: 'user-a', path: '/a1' },
      { userId: 'user-a', path: '/a2' },
      { userId: 'user-b', path: '/b' },
    ]);
    const response = await api().post(`projects/${project.id}/forget`, {
      token: user.token,
      body: { userId: 'user-a' },
    });
    expect(response.json()).toEqual({ deleted: 2 });
    expect((await storedEvents(t.services, project.id)).map((row) => row.user_id)).toEqual(['user-b']);
  });

  it('refuses bad forget requests, others and no session, deleting nothing', async () => {
    const { user, project } = await projectWith('Nothing forgotten');
    await send(project.apiKey, [{ userId: 'user-a', wallet: { address: WALLET } }]);
    const bad = [
      {},
      { wallet: WALLET, userId: 'user-a' },
      { wallet: '0x123' },
      { wallet: `${WALLET}00` },
      { userId: '' },
      { userId: 'a\u0007b' },
      { userId: 'x'.repeat(65) },
      { userId: 42 },
      { email: 'a@b.c' },
    ];
    for (const body of bad) {
      const response = await api().post(`projects/${project.id}/forget`, { token: user.token, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).errorCode).toBe('INVALID_REQUEST_BODY');
    }
    const stranger = await seed(t.services).user().verified();
    const foreign = await api().post(`projects/${project.id}/forget`, {
      token: stranger.token,
      body: { userId: 'user-a' },
    });
    expect(foreign.statusCode).toBe(404);
    expect(errorOf(foreign).errorCode).toBe('RESOURCE_NOT_FOUND');
    const anonymous = await api().post(`projects/${project.id}/forget`, { body: { userId: 'user-a' } });
    expect(anonymous.statusCode).toBe(401);
    expect(await storedEvents(t.services, project.id)).toHaveLength(1);
  });
});
