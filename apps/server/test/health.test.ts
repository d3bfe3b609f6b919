import { describe, expect, it } from 'vitest';
import { pageView, postBatch } from './ingestion/support.ts';
import { errorOf } from './support/client.ts';
import { startTestApp, useTestApp } from './support/harness.ts';
import { seed } from './support/seed.ts';

const TOKEN = 'health-details-token-0123456789';

const health = (
  app: { inject: ReturnType<typeof useTestApp>['app']['inject'] },
  token: string | null = TOKEN,
) =>
  app.inject({
    method: 'GET',
    url: '/api/v1/health',
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });

describe('GET /api/v1/health', () => {
  const t = useTestApp('sqlite', {
    healthMaxLoaderLagMs: 300,
    healthMinFreeDiskBytes: 1024,
    metricsToken: TOKEN,
  });

  it('reports each store, the loader and the disk, and fails on a loader falling behind', async () => {
    const ok = await health(t.app);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      status: 'ok',
      checks: {
        accountsStore: { status: 'ok', latencyMs: expect.any(Number) },
        eventStore: { status: 'ok' },
        loader: { status: 'ok', lagSeconds: 0, pendingBytes: 0, quarantinedRecords: 0 },
        disk: { status: 'ok', path: t.config.dataDir, freeBytes: expect.any(Number) },
        mail: { waiting: expect.any(Number) },
        alertDeliveries: { waiting: 0 },
      },
    });
    expect(ok.json().checks.disk.freeBytes).toBeGreaterThan(1024);

    // Acknowledged, then not loaded for longer than the allowed lag: right after a load, the loader
    // waits up to 3 s before loading a small backlog.
    const { project } = await seed(t.services).user().verified().project().apiKey().domain('app.example.com');
    const post = () => postBatch(t.app, { apiKey: project.apiKey as string, events: [pageView()] });
    expect((await post()).statusCode).toBe(200);
    await t.services.events.flush();
    expect((await post()).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const behind = await health(t.app);
    expect(behind.statusCode).toBe(503);
    expect(errorOf(behind)).toMatchObject({ errorCode: 'SERVICE_UNHEALTHY', message: 'Failing: loader.' });
    expect(behind.json().checks.loader).toMatchObject({ status: 'failing', maxLagSeconds: 0.3 });
    expect(behind.json().checks.loader.lagSeconds).toBeGreaterThanOrEqual(0.3);
    expect(behind.json().checks.loader.pendingBytes).toBeGreaterThan(0);

    await t.services.events.flush();
    expect((await health(t.app)).statusCode).toBe(200);
  });

  it('tells an anonymous caller, or one with a wrong token, the status alone: no path, no byte count', async () => {
    for (const token of [null, 'wrong-token-of-the-same-size-000', 'x']) {
      const response = await health(t.app, token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
      expect(response.body).not.toContain(t.config.dataDir);
    }
  });

  it('fails when the disk holding DATA_DIR is short of space', async () => {
    const app = await startTestApp('sqlite', {
      healthMinFreeDiskBytes: Number.MAX_SAFE_INTEGER,
      metricsToken: TOKEN,
    });
    try {
      const response = await health(app.app);
      expect(response.statusCode).toBe(503);
      expect(errorOf(response).message).toBe('Failing: disk.');
      expect(response.json().checks.disk.status).toBe('failing');
      const anonymous = await health(app.app, null);
      expect(anonymous.statusCode).toBe(503);
      expect(anonymous.json()).toEqual({
        errorCode: 'SERVICE_UNHEALTHY',
        message: 'Failing: disk.',
        status: 'failing',
      });
    } finally {
      await app.close();
    }
  });

  it('fails when a store does not answer', async () => {
    const app = await startTestApp('sqlite', { healthMinFreeDiskBytes: 0, metricsToken: TOKEN });
    try {
      await app.services.eventStore.close();
      const eventsDown = await health(app.app);
      expect(eventsDown.statusCode).toBe(503);
      expect(eventsDown.json().checks.eventStore).toMatchObject({
        status: 'failing',
        error: expect.any(String),
      });
      expect(eventsDown.json().checks.accountsStore.status).toBe('ok');

      await app.services.db.destroy();
      const bothDown = await health(app.app);
      expect(errorOf(bothDown).message).toBe('Failing: accountsStore, eventStore.');
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});
