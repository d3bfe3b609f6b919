import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDocsSite } from '../src/http/docs-site.ts';
import { startTestApp, type TestApp } from './support/harness.ts';

const INLINE = 'document.documentElement.classList.toggle("mac",true)';

describe('the documentation site at /docs/', () => {
  let t: TestApp;
  let consoleDir: string;
  let docsDir: string;

  beforeAll(async () => {
    consoleDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-console-'));
    writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><div id="root">console</div>');
    // Not built yet: the first start builds it in the background once the server serves.
    docsDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'polyflow-docs-')), 'dist');
    t = await startTestApp('sqlite', { consoleDir, docsDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(consoleDir, { recursive: true, force: true });
    rmSync(path.dirname(docsDir), { recursive: true, force: true });
  });

  it('says it is being built until it is, then serves it without a restart', async () => {
    const early = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(early.statusCode).toBe(503);
    expect(early.headers['content-type']).toContain('text/html');
    expect(early.body).toContain('not built yet');

    mkdirSync(path.join(docsDir, 'assets'), { recursive: true });
    writeFileSync(
      path.join(docsDir, 'index.html'),
      `<!doctype html><script type="module" src="/docs/assets/app.js"></script><script id="check-mac-os">${INLINE}</script><h1>Polyflow docs</h1>`,
    );
    writeFileSync(path.join(docsDir, 'sdk.html'), '<h1>SDK reference</h1>');
    writeFileSync(path.join(docsDir, '404.html'), '<h1>Page not found</h1>');
    writeFileSync(path.join(docsDir, 'assets', 'app.abc123.js'), 'console.log(1)');

    const home = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Polyflow docs');
    expect((await t.app.inject({ method: 'GET', url: '/docs/sdk.html' })).body).toContain('SDK reference');
    // Without `.html`, as people type and share a page's address: the same page.
    const clean = await t.app.inject({ method: 'GET', url: '/docs/sdk' });
    expect(clean.statusCode).toBe(200);
    expect(clean.body).toContain('SDK reference');
    const asset = await t.app.inject({ method: 'GET', url: '/docs/assets/app.abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');

    const missing = await t.app.inject({ method: 'GET', url: '/docs/nope.html' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Page not found');
    // Other paths are still the console's.
    expect((await t.app.inject({ method: 'GET', url: '/console/x/config' })).body).toContain('id="root"');
  });

  it('redirects /docs and a folder of the site to their address with a slash, query kept', async () => {
    mkdirSync(path.join(docsDir, 'decisions'), { recursive: true });
    writeFileSync(path.join(docsDir, 'decisions', 'index.html'), '<h1>Decision records</h1>');
    for (const [url, location] of [
      ['/docs', '/docs/'],
      ['/docs?x=1', '/docs/?x=1'],
      ['/docs/decisions', '/docs/decisions/'],
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect({ url, status: response.statusCode, location: response.headers.location }).toEqual({
        url,
        status: 301,
        location,
      });
    }
    const records = await t.app.inject({ method: 'GET', url: '/docs/decisions/' });
    expect(records.statusCode).toBe(200);
    expect(records.body).toContain('Decision records');
    const head = await t.app.inject({ method: 'HEAD', url: '/docs' });
    expect(head.statusCode).toBe(301);
  });

  it("allows the site's own inline scripts by hash, and no other inline script", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    const policy = response.headers['content-security-policy'] as string;
    const hash = createHash('sha256').update(INLINE).digest('base64');
    expect(policy).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(policy).not.toContain("unsafe-inline'; default");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).toContain("frame-ancestors 'none'");
    // The console keeps its stricter policy.
    const consolePage = await t.app.inject({ method: 'GET', url: '/' });
    expect(consolePage.headers['content-security-policy']).toContain("script-src 'self';");
  });

  it('starts before the site is built without a warning in the log', async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
    const notBuilt = path.join(mkdtempSync(path.join(os.tmpdir(), 'polyflow-docs-')), 'dist');
    try {
      await registerDocsSite(app, { docsDir: notBuilt });
      await app.ready();
      // The static plugin warned '"root" path "…/dist" must exist' on every first start.
      expect(lines.filter((line) => JSON.parse(line).level >= 40)).toEqual([]);
    } finally {
      await app.close();
      rmSync(path.dirname(notBuilt), { recursive: true, force: true });
    }
  });
});
