import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { apiClient, errorOf } from './support/client.ts';
import { startTestApp, type TestApp, testConfig, uniqueEmail, useTestApp } from './support/harness.ts';
import { seed } from './support/seed.ts';

describe('HTTP policies', () => {
  const t = useTestApp('sqlite');
  const api = () => apiClient(t.app);

  it('answers the health check and hands out the XSRF cookie on a GET', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok' });
    const cookie = response.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Strict' });
    expect(cookie?.httpOnly).toBeFalsy();
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      cookies: { 'XSRF-TOKEN': cookie?.value ?? '' },
    });
    expect(again.cookies.find((c) => c.name === 'XSRF-TOKEN')).toBeUndefined();
  });

  it('rejects a console mutation without a matching X-XSRF-TOKEN header (403), before doing anything', async () => {
    const email = uniqueEmail();
    const body = JSON.stringify({ email, password: 'a long enough password' });
    const json = { 'content-type': 'application/json' };
    const attempts = [
      t.app.inject({ method: 'POST', url: '/api/v1/register', headers: json, payload: body }),
      t.app.inject({
        method: 'POST',
        url: '/api/v1/register',
        headers: { ...json, cookie: 'XSRF-TOKEN=abc' },
        payload: body,
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/v1/register',
        headers: { ...json, 'x-xsrf-token': 'abc' },
        payload: body,
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/v1/register',
        headers: { ...json, cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abd' },
        payload: body,
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/v1/register?x=1',
        headers: { ...json, cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abcd' },
        payload: body,
      }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(403);
      const error = errorOf(response);
      expect(error.errorCode).toBe('ACCESS_FORBIDDEN');
      expect(error.message).toMatch(/XSRF/);
    }
    const user = await t.services.db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(user).toEqual([]);

    const matching = await api().post('register', { body: { email, password: 'a long enough password' } });
    expect(matching.statusCode).toBe(204);
  });

  it('checks XSRF on project mutations too, even with a valid session', async () => {
    const user = await seed(t.services).user().verified();
    const response = await api().post('projects', { token: user.token, body: { name: 'x' }, xsrf: false });
    expect(response.statusCode).toBe(403);
    expect((await api().get('projects', { token: user.token, xsrf: false })).statusCode).toBe(200);
  });

  it('leaves the SDK ingestion route to its own checks (no XSRF there)', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/events', payload: {} });
    expect(errorOf(response).message).not.toMatch(/XSRF/);
    expect(response.cookies).toEqual([]);
  });

  it('puts security headers on every kind of response', async () => {
    const responses = [
      await t.app.inject({ method: 'GET', url: '/api/v1/health' }),
      await api().post('login', { body: { email: 'x@example.com', password: 'nope nope' } }),
      await api().get('nowhere'),
      await t.app.inject({ method: 'GET', url: '/' }),
    ];
    for (const response of responses) {
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('sends no CORS headers to another origin on console routes', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/login',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const login = await api().post('login', {
      body: { email: 'x@example.com', password: 'whatever1' },
      headers: { origin: 'https://evil.example' },
    });
    expect(login.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('maps unknown API routes to a JSON 404 and unsupported media types to 415', async () => {
    const missing = await api().get('does-not-exist');
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).errorCode).toBe('RESOURCE_NOT_FOUND');
    const form = await api().post('login', {
      payload: 'email=a',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.statusCode).toBe(415);
    expect(errorOf(form).errorCode).toBe('UNSUPPORTED_MEDIA_TYPE');
    // text/plain is parsed (the SDK's preflight-free ingestion uses it), so it fails validation instead.
    const text = await api().post('login', { payload: 'email=a', contentType: 'text/plain' });
    expect(text.statusCode).toBe(400);
    expect(errorOf(text).errorCode).toBe('INVALID_REQUEST_BODY');
  });

  it('answers 503 with a hint when the console is not built', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/console/abc/config' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('npm run build');
  });
});

describe('console serving', () => {
  let t: TestApp;
  let consoleDir: string;

  beforeAll(async () => {
    consoleDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-console-'));
    mkdirSync(path.join(consoleDir, 'assets'));
    writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><div id="root">console</div>');
    writeFileSync(path.join(consoleDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(consoleDir, 'favicon.svg'), '<svg/>');
    t = await startTestApp('sqlite', { consoleDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  it('serves index.html for the root and every client-side route', async () => {
    for (const url of ['/', '/verify?email=a%40b.c', '/console/123/config', '/forgot-password?token=x']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('id="root"');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('serves assets with long caching and 404s for missing files and API paths', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ method: 'GET', url: '/favicon.svg' })).statusCode).toBe(200);
    for (const url of ['/assets/missing.js', '/api/v1/nope', '/api', '/robots.txt']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(errorOf(response).errorCode).toBe('RESOURCE_NOT_FOUND');
    }
    const post = await t.app.inject({ method: 'POST', url: '/console/1' });
    expect(post.statusCode).toBe(404);
  });

  it('does not serve files outside the console directory', async () => {
    for (const url of ['/../package.json', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2fetc%2fpasswd']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.body).not.toContain('root:');
      expect(response.body).not.toContain('"name"');
    }
  });
});

describe('rate limits on the auth routes', () => {
  const t = useTestApp('sqlite', { authRateLimit: { max: 3, windowMs: 60_000 } });

  it.each([
    ['login', { email: 'a@example.com', password: 'whatever1' }],
    ['register', { email: 'rl@example.com', password: 'whatever1' }],
    ['register/resend', { email: 'a@example.com' }],
    ['register/verify', { token: 'abc' }],
    ['forgot-password', { email: 'a@example.com' }],
    ['forgot-password/reset', { token: 'abc', newPassword: 'whatever1' }],
  ])('limits %s', async (route, body) => {
    const api = apiClient(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await api.post(route, { body })).statusCode);
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses.slice(3)).toEqual([429, 429]);
    const limited = await api.post(route, { body });
    expect(errorOf(limited).errorCode).toBe('RATE_LIMITED');
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('does not limit the project routes by the auth limit', async () => {
    const user = await seed(t.services).user().verified();
    const api = apiClient(t.app);
    for (let i = 0; i < 6; i++)
      expect((await api.get('projects', { token: user.token })).statusCode).toBe(200);
  });
});

describe('mail without SMTP', () => {
  const t = useTestApp('sqlite', { smtpUrl: undefined });

  it('writes each email to DATA_DIR/outbox with its link', async () => {
    const email = uniqueEmail('outbox');
    const response = await apiClient(t.app).post('register', {
      body: { email, password: 'a long enough password' },
    });
    expect(response.statusCode).toBe(204);
    await t.services.mail.flush();
    const outbox = path.join(t.config.dataDir, 'outbox');
    const file = readdirSync(outbox).find((name) => name.endsWith(`-${email}.txt`));
    expect(file).toBeDefined();
    const text = readFileSync(path.join(outbox, file ?? ''), 'utf8');
    expect(text).toContain(`To: ${email}`);
    expect(text).toMatch(/http:\/\/polyflow\.test\/verify\?token=[A-Za-z0-9_-]{43}/);
  });
});

describe('logs', () => {
  it('never carry passwords, session tokens, cookies or API keys', async () => {
    // An app logging into memory at the most verbose level.
    const lines: string[] = [];
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-logs-'));
    const app = await buildApp(testConfig(dataDir, { logLevel: 'trace' }), {
      logStream: { write: (line) => lines.push(line) },
    });
    try {
      const { user, project } = await seed(app.services).user().verified().project().apiKey();
      const api = apiClient(app);
      await api.post('login', { body: { email: user.email, password: user.password } });
      await api.get(`projects?token=${user.token}`, { token: user.token });
      await api.post('register/verify', { body: { token: 'secret-verification-code' } });
      await app.inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: { 'x-api-key': project.apiKey ?? '' },
      });
      const log = lines.join('');
      expect(log).toContain('incoming request');
      for (const secret of [
        user.password,
        user.token,
        project.apiKey ?? 'x',
        'secret-verification-code',
        'test-xsrf-token-value',
      ]) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
