import { describe, expect, it } from 'vitest';
import { errorOf } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { pageView, postBatch, storedEvents } from './support.ts';

const harness = useTestApp('sqlite', { ingestEventsPerMinute: 50 });

async function project(...domains: string[]) {
  let builder = seed(harness.services).user().verified().project('Shop').apiKey();
  for (const domain of domains) builder = builder.domain(domain);
  return builder;
}

describe('ingestion: API key and Origin whitelist', () => {
  it('matches exact hosts and *. wildcards, ignoring ports and the scheme', async () => {
    const { project: p } = await project('shop.example.com', '*.dapp.xyz');
    const send = (origin: string | null) =>
      postBatch(harness.app, { apiKey: p.apiKey as string, events: [pageView()] }, { origin });
    for (const origin of [
      'https://shop.example.com',
      'http://shop.example.com:8080',
      'https://a.dapp.xyz',
      'https://b.a.dapp.xyz:3000',
    ]) {
      const response = await send(origin);
      expect(response.statusCode, origin).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(origin);
      expect(response.headers.vary).toContain('Origin');
    }
    for (const origin of [
      'https://evil.com',
      'https://dapp.xyz',
      'https://shop.example.com.evil.com',
      'https://xshop.example.com',
      'null',
    ]) {
      const response = await send(origin);
      expect(response.statusCode, origin).toBe(403);
      expect(errorOf(response).errorCode).toBe('ORIGIN_NOT_WHITELISTED');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
    const missing = await send(null);
    expect(missing.statusCode).toBe(403);
    expect(errorOf(missing).errorCode).toBe('ORIGIN_NOT_WHITELISTED');
    const stored = await storedEvents(harness.services, p.id);
    expect(stored.map((row) => row.origin).sort()).toEqual([
      'a.dapp.xyz',
      'b.a.dapp.xyz',
      'shop.example.com',
      'shop.example.com',
    ]);
  });

  it('refuses a project without any whitelisted domain', async () => {
    const { project: p } = await project();
    const response = await postBatch(harness.app, { apiKey: p.apiKey as string, events: [pageView()] });
    expect(response.statusCode).toBe(403);
    expect(await storedEvents(harness.services, p.id)).toHaveLength(0);
  });

  it('refuses unknown keys, and a replaced or revoked key with the very next request', async () => {
    const { user, project: p } = await project('app.example.com');
    const oldKey = p.apiKey as string;
    const send = (apiKey: string) => postBatch(harness.app, { apiKey, events: [pageView()] });
    expect((await send(oldKey)).statusCode).toBe(200); // now cached
    const unknown = await send('pf_00000000000000000000000000000000');
    expect(unknown.statusCode).toBe(401);
    expect(errorOf(unknown).errorCode).toBe('NON_EXISTENT_API_KEY');
    expect(unknown.headers['access-control-allow-origin']).toBeUndefined();

    const replaced = await harness.services.projects.createApiKey({ ...user, ip: '127.0.0.1' }, p.id);
    expect(errorOf(await send(oldKey)).errorCode).toBe('NON_EXISTENT_API_KEY');
    expect((await send(replaced.apiKey as string)).statusCode).toBe(200);
    await harness.services.projects.revokeApiKey({ ...user, ip: '127.0.0.1' }, p.id);
    expect((await send(replaced.apiKey as string)).statusCode).toBe(401);
    expect(await storedEvents(harness.services, p.id)).toHaveLength(2);
  });

  it('drops a domain from the whitelist at once', async () => {
    const { user, project: p } = await project('app.example.com');
    const send = () => postBatch(harness.app, { apiKey: p.apiKey as string, events: [pageView()] });
    expect((await send()).statusCode).toBe(200);
    await harness.services.projects.deleteDomain({ ...user, ip: '127.0.0.1' }, p.id, 'app.example.com');
    expect((await send()).statusCode).toBe(403);
  });

  it('answers preflights without credentials and needs no XSRF token or cookie', async () => {
    const response = await harness.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/events',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    const { project: p } = await project('app.example.com');
    const post = await postBatch(harness.app, { apiKey: p.apiKey as string, events: [pageView()] });
    expect(post.statusCode).toBe(200);
    expect(post.headers['set-cookie']).toBeUndefined();
  });

  it('rate-limits per key, counting events (limit 50 per minute in this file)', async () => {
    const { project: p } = await project('app.example.com');
    const { project: other } = await project('app.example.com');
    const batch = (apiKey: string) => ({ apiKey, events: Array.from({ length: 20 }, () => pageView()) });
    expect((await postBatch(harness.app, batch(p.apiKey as string))).statusCode).toBe(200);
    expect((await postBatch(harness.app, batch(p.apiKey as string))).statusCode).toBe(200);
    const limited = await postBatch(harness.app, batch(p.apiKey as string));
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited).errorCode).toBe('RATE_LIMITED');
    // 20 events wanted, about 10 left, 50 a minute coming back: about 12 s to wait.
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(11);
    expect(retryAfter).toBeLessThanOrEqual(13);
    // The whitelisted page may read the 429 to back off.
    expect(limited.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect((await postBatch(harness.app, batch(other.apiKey as string))).statusCode).toBe(200);
    expect(await storedEvents(harness.services, p.id)).toHaveLength(40);
  });
});

describe('ingestion: back-pressure', () => {
  it('answers 503 INGESTION_BACKLOG with Retry-After, and stores nothing, while the log is backlogged beyond twice its limit', async () => {
    const { project: p } = await project('shop.example.com');
    const events = harness.services.events;
    const backlog = events.backlog;
    // Beyond twice the limit (back-pressure.test.ts fills a real backlog to the limit).
    events.backlog = () => 'full';
    try {
      const batch = { apiKey: p.apiKey as string, events: [pageView()] };
      const response = await postBatch(harness.app, batch, { origin: 'https://shop.example.com' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(errorOf(response).errorCode).toBe('INGESTION_BACKLOG');
      // The page may read it and back off.
      expect(response.headers['access-control-allow-origin']).toBe('https://shop.example.com');
      expect(await storedEvents(harness.services, p.id)).toEqual([]);
      // Refused before the body is parsed or the key looked up: a refusal costs the loader nothing.
      const unparsed = await harness.app.inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: { 'content-type': 'text/plain' },
        payload: '{not json',
      });
      expect(unparsed.statusCode).toBe(503);
      expect(errorOf(unparsed).errorCode).toBe('INGESTION_BACKLOG');
    } finally {
      events.backlog = backlog;
    }
  });
});
