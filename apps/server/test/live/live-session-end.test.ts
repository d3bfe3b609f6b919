import type { AddressInfo } from 'node:net';
import { type LiveClosing, LiveClosingSchema } from '@polyflow/contracts/live';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TTL_SECONDS } from '../../src/modules/auth/sessions.ts';
import { pageView, postBatch } from '../ingestion/support.ts';
import { apiClient } from '../support/client.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { codeFrom } from '../support/smtp-sink.ts';
import { openLiveStream, type Stream } from './live-client.ts';

/**
 * A live stream ends with its session at once, not at the next heartbeat (a minute here): Log Out, a
 * password reset, the session's expiry, and the user losing access to the project; each time with the
 * documented last message (docs/live.md).
 */
let testApp: TestApp;
let baseUrl: string;

beforeAll(async () => {
  testApp = await startTestApp('sqlite', {
    live: { heartbeatMs: 60_000, closeGraceMs: 1_000 },
  });
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await testApp?.close();
});

async function watched() {
  const { project, user } = await seed(testApp.services)
    .user()
    .verified()
    .project('Watched')
    .apiKey()
    .domain('app.example.com');
  const stream = await openLiveStream(baseUrl, project.id, user.token);
  expect(stream.status).toBe(200);
  return { project, user, stream };
}

/** Ended within `withinMs` (a second), its last message the closing one with this reason, no event after it. */
async function expectClosed(stream: Stream, reason: LiveClosing['reason'], withinMs = 1_000) {
  const ended = await Promise.race([
    stream.ended.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), withinMs)),
  ]);
  expect(ended).toBe(true);
  expect(stream.messages.at(-1)?.event).toBe('closing');
  expect(LiveClosingSchema.parse(JSON.parse(stream.messages.at(-1)?.data ?? '{}')).reason).toBe(reason);
  expect(stream.messages.filter((message) => message.event === 'event')).toEqual([]);
}

describe('a live stream and its session', () => {
  it('closes at Log Out, before an event ingested right after it is delivered', async () => {
    const { project, user, stream } = await watched();
    const logout = await apiClient(testApp.app).post('logout', { token: user.token });
    expect(logout.statusCode).toBe(204);
    expect(
      (await postBatch(testApp.app, { apiKey: project.apiKey as string, events: [pageView()] })).statusCode,
    ).toBe(200);
    await expectClosed(stream, 'SESSION_ENDED');
    expect(testApp.services.live.connections(project.id)).toBe(0);
  });

  it('closes every stream of the account at a password reset, and only that account’s', async () => {
    const { project, user, stream } = await watched();
    const other = await watched();
    const api = apiClient(testApp.app);
    expect((await api.post('forgot-password', { body: { email: user.email } })).statusCode).toBe(204);
    const code = codeFrom(await testApp.mail.waitFor(user.email, { subject: /reset/i }));
    const reset = await api.post('forgot-password/reset', {
      body: { token: code, newPassword: 'a brand new long password' },
    });
    expect(reset.statusCode).toBe(204);
    await postBatch(testApp.app, { apiKey: project.apiKey as string, events: [pageView()] });
    await expectClosed(stream, 'SESSION_ENDED');
    expect(testApp.services.live.connections(other.project.id)).toBe(1);
    other.stream.request.destroy();
  });

  it('closes when the session expires', async () => {
    const { project, user } = await seed(testApp.services).user().verified().project('Expiring');
    // The token was issued now; the server's clock is moved to 2 s before it expires. The stream must be
    // open before then (400 ms was too little on a loaded CI machine: the open answered 401), and it must
    // end at the expiry, long before the next heartbeat (a minute).
    testApp.clock.advance(SESSION_TTL_SECONDS * 1000 - 2_000 - (Date.now() % 1000));
    try {
      const stream = await openLiveStream(baseUrl, project.id, user.token);
      expect(stream.status).toBe(200);
      await expectClosed(stream, 'SESSION_ENDED', 3_000);
      expect(JSON.parse(stream.messages.at(-1)?.data ?? '{}').message).toContain('expired');
      expect(testApp.services.live.connections(project.id)).toBe(0);
    } finally {
      testApp.clock.reset();
    }
  });

  it('closes a user’s streams on a project when they lose access (closeStreamsOf), and at its deletion', async () => {
    const { project, user, stream } = await watched();
    const second = await openLiveStream(baseUrl, project.id, user.token);
    const closed = testApp.services.live.closeStreamsOf(user.id, project.id);
    expect(closed).toBe(2);
    await expectClosed(stream, 'ACCESS_ENDED');
    await expectClosed(second, 'ACCESS_ENDED');
    expect(testApp.services.live.closeStreamsOf(user.id, project.id)).toBe(0);

    const deleted = await watched();
    const response = await apiClient(testApp.app).delete(`projects/${deleted.project.id}`, {
      token: deleted.user.token,
    });
    expect(response.statusCode).toBe(204);
    await expectClosed(deleted.stream, 'ACCESS_ENDED');
  });

  it('closes a removed member’s streams at once, and a leaving member’s, not the owner’s', async () => {
    const { project, user: owner, stream: ownerStream } = await watched();
    const member = await seed(testApp.services).user().verified().build();
    const leaver = await seed(testApp.services).user().verified().build();
    await testApp.services.db
      .insertInto('project_members')
      .values(
        [member, leaver].map((user) => ({
          project_id: project.id,
          user_id: user.id,
          role: 'viewer' as const,
          joined_at: new Date().toISOString(),
        })),
      )
      .execute();
    const memberStream = await openLiveStream(baseUrl, project.id, member.token);
    const leaverStream = await openLiveStream(baseUrl, project.id, leaver.token);
    expect([memberStream.status, leaverStream.status]).toEqual([200, 200]);
    const api = apiClient(testApp.app);
    expect(
      (await api.delete(`projects/${project.id}/members/${member.id}`, { token: owner.token })).statusCode,
    ).toBe(204);
    expect(
      (await api.delete(`projects/${project.id}/members/${leaver.id}`, { token: leaver.token })).statusCode,
    ).toBe(204);
    await expectClosed(memberStream, 'ACCESS_ENDED');
    await expectClosed(leaverStream, 'ACCESS_ENDED');
    expect(testApp.services.live.connections(project.id)).toBe(1);
    ownerStream.request.destroy();
  });

  it('always tells a slow consumer why it was closed, however long it takes to read what was buffered', async () => {
    const { project, user } = await watched();
    const feed = testApp.services.live;
    const slow = await openLiveStream(baseUrl, project.id, user.token);
    slow.response.pause();
    const longPath = `/${'p'.repeat(1_900)}`;
    for (let sent = 0; feed.connections(project.id) === 2 && sent < 200_000; sent += 25) {
      const events = Array.from({ length: 25 }, () => pageView({ path: longPath }));
      expect((await postBatch(testApp.app, { apiKey: project.apiKey as string, events })).statusCode).toBe(
        200,
      );
    }
    // It reads on, a chunk at a time.
    const started = Date.now();
    while (!slow.response.destroyed && slow.response.readable) {
      slow.response.resume();
      await new Promise((resolve) => setImmediate(resolve));
      slow.response.pause();
      await new Promise((resolve) => setTimeout(resolve, 400));
      if (slow.messages.at(-1)?.event === 'closing' || Date.now() - started > 20_000) break;
    }
    slow.response.resume();
    await slow.ended;
    // Longer than one grace (1 s), which was all a client had before.
    expect(Date.now() - started).toBeGreaterThan(1_000);
    expect(slow.messages.at(-1)?.event).toBe('closing');
    expect(LiveClosingSchema.parse(JSON.parse(slow.messages.at(-1)?.data ?? '{}')).reason).toBe(
      'SLOW_CONSUMER',
    );
  }, 60_000);
});
