import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IntegrationStatusSchema } from '@polyflow/contracts/integration';
import { afterAll, describe, expect, it } from 'vitest';
import { errorOf } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { pageView, postBatch } from './support.ts';

const scriptDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-sdk-'));
const scriptPath = path.join(scriptDir, 'polyflow.iife.js');
afterAll(() => rmSync(scriptDir, { recursive: true, force: true }));
const harness = useTestApp('sqlite', { sdkScriptPath: scriptPath });

const status = (projectId: string, token?: string, since?: string) =>
  harness.app.inject({
    method: 'GET',
    url: `/api/v1/projects/${projectId}/integration${since ? `?since=${encodeURIComponent(since)}` : ''}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

describe('GET /api/v1/projects/:id/integration', () => {
  it('says what is missing, then what arrived from which origin and when', async () => {
    const user = seed(harness.services).user().verified();
    const { project: bare, user: owner } = await user.project('Bare');
    const empty = await status(bare.id, owner.token);
    expect(empty.statusCode).toBe(200);
    expect(IntegrationStatusSchema.parse(empty.json())).toEqual({
      hasApiKey: false,
      whitelistedDomains: [],
      eventsSince: 0,
      lastEvent: null,
      origins: [],
    });

    const { project: p } = await user
      .project('Live')
      .apiKey()
      .domain('app.example.com')
      .domain('*.example.org');
    const before = new Date().toISOString();
    await postBatch(harness.app, { apiKey: p.apiKey as string, events: [pageView(), pageView()] });
    await postBatch(
      harness.app,
      { apiKey: p.apiKey as string, events: [pageView({ type: 'wallet_connected' } as never)] },
      { origin: 'https://x.example.org' },
    );
    const live = IntegrationStatusSchema.parse((await status(p.id, owner.token, before)).json());
    expect(live).toMatchObject({ hasApiKey: true, eventsSince: 3 });
    expect([...live.whitelistedDomains].sort()).toEqual(['*.example.org', 'app.example.com']);
    expect(live.lastEvent).toMatchObject({ origin: 'x.example.org', type: 'wallet_connected' });
    expect(live.origins.map(({ origin, events }) => ({ origin, events }))).toEqual([
      { origin: 'x.example.org', events: 1 },
      { origin: 'app.example.com', events: 2 },
    ]);
    // Counting starts at `since`; the last event is the last one ever.
    const later = IntegrationStatusSchema.parse(
      (await status(p.id, owner.token, new Date(Date.now() + 60_000).toISOString())).json(),
    );
    expect(later.eventsSince).toBe(0);
    expect(later.lastEvent?.type).toBe('wallet_connected');
  });

  it('answers only the owner: 401 without a session, 404 for someone else, 400 for a bad since', async () => {
    const { project: p, user: owner } = await seed(harness.services).user().verified().project('Mine');
    const stranger = await seed(harness.services).user().verified();
    expect((await status(p.id)).statusCode).toBe(401);
    const foreign = await status(p.id, stranger.token);
    expect(foreign.statusCode).toBe(404);
    expect(errorOf(foreign).errorCode).toBe('RESOURCE_NOT_FOUND');
    expect((await status('not-a-uuid', owner.token)).statusCode).toBe(404);
    const bad = await status(p.id, owner.token, 'last tuesday');
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).errorCode).toBe('INVALID_REQUEST_BODY');
  });
});

describe('GET /sdk.js', () => {
  it('is 503 with a JSON error until the SDK is built, then serves it cross-origin with caching headers', async () => {
    const missing = await harness.app.inject({ method: 'GET', url: '/sdk.js' });
    expect(missing.statusCode).toBe(503);
    expect(errorOf(missing).message).toMatch(/npm run build -w packages\/sdk/);

    writeFileSync(scriptPath, '(function(){window.__polyflow=1})();\n');
    const served = await harness.app.inject({ method: 'GET', url: '/sdk.js' });
    expect(served.statusCode).toBe(200);
    expect(served.body).toBe('(function(){window.__polyflow=1})();\n');
    expect(served.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(served.headers['cache-control']).toMatch(/max-age=\d+/);
    const etag = served.headers.etag as string;
    expect(etag).toBeTruthy();
    const revalidated = await harness.app.inject({
      method: 'GET',
      url: '/sdk.js',
      headers: { 'if-none-match': etag },
    });
    expect(revalidated.statusCode).toBe(304);
  });
});

describe('GET /sdk-addon.js', () => {
  it('serves the add-on beside /sdk.js as a cross-origin module, with the same caching headers', async () => {
    const addonPath = path.join(scriptDir, 'polyflow-addon.esm.js');
    const missing = await harness.app.inject({ method: 'GET', url: '/sdk-addon.js' });
    expect(missing.statusCode).toBe(503);

    writeFileSync(addonPath, 'export const record = () => {};\n');
    const served = await harness.app.inject({
      method: 'GET',
      url: '/sdk-addon.js',
      headers: { origin: 'https://dapp.example' },
    });
    expect(served.statusCode).toBe(200);
    expect(served.body).toBe('export const record = () => {};\n');
    expect(served.headers['content-type']).toBe('text/javascript; charset=utf-8');
    // A module script from another origin is fetched in CORS mode: without this header the import fails.
    expect(served.headers['access-control-allow-origin']).toBe('*');
    expect(served.headers['cache-control']).toMatch(/max-age=\d+/);
    const etag = served.headers.etag as string;
    const revalidated = await harness.app.inject({
      method: 'GET',
      url: '/sdk-addon.js',
      headers: { 'if-none-match': etag },
    });
    expect(revalidated.statusCode).toBe(304);
  });
});
