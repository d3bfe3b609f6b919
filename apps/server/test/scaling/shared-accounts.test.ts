import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_CACHE_TTL_MS } from '../../src/modules/ingestion/key-cache.ts';
import { pageView, postBatch } from '../ingestion/support.ts';
import { apiClient, errorOf } from '../support/client.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/**
 * Two nodes of one deployment (docs/scaling.md): two servers on one PostgreSQL database with the same
 * JWT secret and nothing else shared. What one changes, the other obeys: within 5 s for API keys and
 * domains (ingestion caches them), at once for sessions.
 */
const REVOCATION_PROMISE_MS = 5_000;

let nodeA: TestApp;
let nodeB: TestApp;

beforeAll(async () => {
  nodeA = await startTestApp('postgres');
  nodeB = await startTestApp('postgres', {
    databaseUrl: nodeA.config.databaseUrl,
    jwtSecret: nodeA.config.jwtSecret,
  });
});

afterAll(async () => {
  await nodeB?.close();
  await nodeA?.close();
});

async function shop() {
  return seed(nodeA.services).user().verified().project('Shop').apiKey().domain('app.example.com');
}

/** How long node A keeps answering `accepted` before it answers something else; fails past 10 s. */
async function msUntilRefused(send: () => Promise<{ statusCode: number }>): Promise<number> {
  const started = Date.now();
  for (;;) {
    const response = await send();
    if (response.statusCode !== 200) return Date.now() - started;
    if (Date.now() - started > 10_000) throw new Error('node A still accepts after 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('several nodes on one PostgreSQL', () => {
  it('refuses a key revoked on node B on node A within 5 s', async () => {
    const { user, project } = await shop();
    const apiKey = project.apiKey as string;
    const sendTo = (node: TestApp) => () => postBatch(node.app, { apiKey, events: [pageView()] });
    // Node A has the key in its cache now.
    expect((await sendTo(nodeA)()).statusCode).toBe(200);
    expect((await sendTo(nodeB)()).statusCode).toBe(200);

    const revoked = await apiClient(nodeB.app).delete(`projects/${project.id}/api-key`, {
      token: user.token,
    });
    expect(revoked.statusCode).toBe(200);
    const revokedAt = Date.now();
    // The node that made the change forgets the key at once.
    expect((await sendTo(nodeB)()).statusCode).toBe(401);

    const waited = await msUntilRefused(sendTo(nodeA));
    const response = await sendTo(nodeA)();
    expect(response.statusCode).toBe(401);
    expect(errorOf(response).errorCode).toBe('NON_EXISTENT_API_KEY');
    expect(Date.now() - revokedAt).toBeLessThan(REVOCATION_PROMISE_MS);
    expect(waited).toBeLessThanOrEqual(KEY_CACHE_TTL_MS + 1_000);
  });

  it('refuses a domain removed on node B on node A within 5 s', async () => {
    const { user, project } = await shop();
    const send = () => postBatch(nodeA.app, { apiKey: project.apiKey as string, events: [pageView()] });
    expect((await send()).statusCode).toBe(200);

    const removed = await apiClient(nodeB.app).patch(`projects/${project.id}/domains/delete`, {
      token: user.token,
      body: { domain: 'app.example.com' },
    });
    expect(removed.statusCode).toBe(200);
    const removedAt = Date.now();

    await msUntilRefused(send);
    const response = await send();
    expect(response.statusCode).toBe(403);
    expect(errorOf(response).errorCode).toBe('ORIGIN_NOT_WHITELISTED');
    expect(Date.now() - removedAt).toBeLessThan(REVOCATION_PROMISE_MS);
  });

  it('honours a session opened on node A on node B, and a Log Out on B on A at once', async () => {
    const { user, project } = await shop();
    const login = await apiClient(nodeA.app).post('login', {
      body: { email: user.email, password: user.password },
    });
    expect(login.statusCode).toBe(200);
    const { token } = login.json() as { token: string };

    const onB = await apiClient(nodeB.app).get('projects', { token });
    expect(onB.statusCode).toBe(200);
    const { projects } = onB.json() as { projects: { id: string }[] };
    expect(projects.map((p) => p.id)).toEqual([project.id]);

    expect((await apiClient(nodeB.app).post('logout', { token })).statusCode).toBeLessThan(300);
    const onA = await apiClient(nodeA.app).get('projects', { token });
    expect(onA.statusCode).toBe(401);
  });
});
