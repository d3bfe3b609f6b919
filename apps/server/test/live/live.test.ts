import type { AddressInfo } from 'node:net';
import { LiveClosingSchema, LiveEventSchema } from '@polyflow/contracts/live';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageView, postBatch } from '../ingestion/support.ts';
import { errorOf } from '../support/client.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { openLiveStream, type Stream } from './live-client.ts';

let testApp: TestApp;
let baseUrl: string;
const LIMITS = { maxQueuedMessages: 20, heartbeatMs: 300, closeGraceMs: 10_000, maxConnectionsPerProject: 2 };

beforeAll(async () => {
  testApp = await startTestApp('sqlite', { live: LIMITS });
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await testApp?.close();
});

const openStream = (projectId: string, token: string): Promise<Stream> =>
  openLiveStream(baseUrl, projectId, token);

const live = (projectId: string, token?: string) =>
  testApp.app.inject({
    method: 'GET',
    url: `/api/v1/projects/${projectId}/live`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GET /api/v1/projects/:id/live', () => {
  it('sends the owner one message per acknowledged event, not duplicates, not other projects', async () => {
    const user = seed(testApp.services).user().verified();
    const { project, user: owner } = await user.project('Live').apiKey().domain('app.example.com');
    const { project: other } = await user.project('Other').apiKey().domain('app.example.com');
    const stream = await openStream(project.id, owner.token);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toContain('no-cache');

    const first = pageView({ path: '/swap' });
    const connect = pageView({
      type: 'wallet_connected',
      path: '/swap',
      wallet: { address: '0xAbCdEf0000000000000000000000000000000001', provider: 'MetaMask', chainId: 1 },
    } as never);
    const before = Date.now();
    const answer = await postBatch(testApp.app, {
      apiKey: project.apiKey as string,
      events: [first, connect],
    });
    expect(answer.json()).toEqual({ accepted: 2, duplicates: 0 });
    await postBatch(testApp.app, { apiKey: other.apiKey as string, events: [pageView()] });
    // The same batch again (a retry): acknowledged as duplicates, not sent twice.
    const third = pageView({ path: '/pool' });
    const tracked = pageView({ type: 'custom', name: 'swap_clicked', path: '/swap' } as never);
    await postBatch(testApp.app, {
      apiKey: project.apiKey as string,
      events: [first, connect, third, tracked],
    });

    const messages = await stream.next(4);
    // Delivered from the ingestion path: nothing had to be loaded into the event store first.
    expect(Date.now() - before).toBeLessThan(2_000);
    const events = messages.map((message) => LiveEventSchema.parse(JSON.parse(message.data)));
    expect(messages.map((message) => [message.event, message.id])).toEqual([
      ['event', first.id],
      ['event', connect.id],
      ['event', third.id],
      ['event', tracked.id],
    ]);
    expect(events[0]).toMatchObject({
      id: first.id,
      type: 'page_view',
      eventName: null,
      path: '/swap',
      wallet: null,
    });
    // A custom event carries its name, as the stored event does.
    expect(events[3]).toMatchObject({ type: 'custom', eventName: 'swap_clicked', path: '/swap' });
    expect(events[1]).toMatchObject({
      id: connect.id,
      type: 'wallet_connected',
      wallet: '0xabcdef0000000000000000000000000000000001',
      walletProvider: 'MetaMask',
      chainId: 1,
      country: 'GB',
      browser: 'Chrome',
      time: new Date(connect.ts).toISOString(),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.messages).toHaveLength(4);
    stream.request.destroy();
  });

  it('refuses other owners (404 like a missing project), no session (401), bad ids (404)', async () => {
    const { project } = await seed(testApp.services).user().verified().project('Mine');
    const stranger = await seed(testApp.services).user().verified();
    const refused = await live(project.id, stranger.token);
    expect(refused.statusCode).toBe(404);
    expect(errorOf(refused)).toMatchObject({ errorCode: 'RESOURCE_NOT_FOUND' });
    expect(refused.headers['content-type']).toContain('application/json');
    expect((await live(project.id)).statusCode).toBe(401);
    const bad = await live('not-a-project', stranger.token);
    expect(bad.statusCode).toBe(404);
    expect(errorOf(bad)).toMatchObject({ errorCode: 'RESOURCE_NOT_FOUND', message: expect.any(String) });
  });

  it('caps the streams of a project, and frees a slot when a client disconnects', async () => {
    const { project, user: owner } = await seed(testApp.services).user().verified().project('Capped');
    const feed = testApp.services.live;
    const a = await openStream(project.id, owner.token);
    const b = await openStream(project.id, owner.token);
    expect(feed.connections(project.id)).toBe(2);
    const third = await live(project.id, owner.token);
    expect(third.statusCode).toBe(429);
    expect(errorOf(third)).toMatchObject({ errorCode: 'RATE_LIMITED' });
    a.request.destroy();
    await until(() => feed.connections(project.id) === 1);
    const c = await openStream(project.id, owner.token);
    expect(c.status).toBe(200);
    b.request.destroy();
    c.request.destroy();
    await until(() => feed.connections(project.id) === 0);
  });

  it('keeps an idle stream open with heartbeats, and ends it with the session', async () => {
    const { project, user: owner } = await seed(testApp.services).user().verified().project('Idle');
    const stream = await openStream(project.id, owner.token);
    await until(() => stream.comments.filter((comment) => comment === 'keep-alive').length >= 2);
    await testApp.services.sessions.end(owner.token);
    await stream.ended;
    const closing = stream.messages.at(-1);
    expect(closing?.event).toBe('closing');
    expect(LiveClosingSchema.parse(JSON.parse(closing?.data ?? '{}')).reason).toBe('SESSION_ENDED');
    expect(testApp.services.live.connections(project.id)).toBe(0);
  });

  it('closes a consumer that falls behind, with a last message, holding at most its queue', async () => {
    const { project, user: owner } = await seed(testApp.services)
      .user()
      .verified()
      .project('Slow')
      .apiKey()
      .domain('app.example.com');
    const feed = testApp.services.live;
    const slow = await openStream(project.id, owner.token);
    const fast = await openStream(project.id, owner.token);
    // The slow client stops reading: the kernel's socket buffers fill, then Node's, then the queue.
    slow.response.pause();
    const rssBefore = process.memoryUsage().rss;
    let sent = 0;
    const longPath = `/${'p'.repeat(290)}`;
    while (feed.connections(project.id) === 2 && sent < 100_000) {
      const events = Array.from({ length: 100 }, () => pageView({ path: longPath }));
      const answer = await postBatch(testApp.app, { apiKey: project.apiKey as string, events });
      expect(answer.statusCode).toBe(200);
      sent += 100;
    }
    expect(feed.connections(project.id)).toBe(1);
    expect(feed.peakQueued()).toBeLessThanOrEqual(LIMITS.maxQueuedMessages);
    // What the server held for the slow client is its bounded queue and socket buffers, not every event.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);

    slow.response.resume();
    await slow.ended;
    const closing = slow.messages.at(-1);
    expect(closing?.event).toBe('closing');
    expect(LiveClosingSchema.parse(JSON.parse(closing?.data ?? '{}')).reason).toBe('SLOW_CONSUMER');
    expect(slow.messages.length - 1).toBeLessThan(sent);
    // The client that kept up got every event.
    await fast.next(sent, 20_000);
    expect(fast.messages.every((message) => message.event === 'event')).toBe(true);
    fast.request.destroy();
  }, 60_000);
});
