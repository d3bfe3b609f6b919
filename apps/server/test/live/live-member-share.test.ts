import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../support/client.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { addMember, seed } from '../support/seed.ts';
import { openLiveStream, type Stream } from './live-client.ts';

/**
 * Round-39 attack: a viewer opened the project's 10 live streams (10 tabs, or a script) and its owner's
 * Live screen answered 429 until the viewer closed them. One user now holds at most 5 of a project's
 * streams, on the product's defaults (docs/live.md).
 */
let testApp: TestApp;
let baseUrl: string;

beforeAll(async () => {
  testApp = await startTestApp('sqlite', { live: { heartbeatMs: 60_000 } });
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await testApp?.close();
});

const live = (projectId: string, token: string) =>
  testApp.app.inject({
    method: 'GET',
    url: `/api/v1/projects/${projectId}/live`,
    headers: { authorization: `Bearer ${token}` },
  });

describe('live streams of one project shared between its members', () => {
  it("refuses a member's sixth stream of a project, so that the owner can still watch", async () => {
    const { project, user: owner } = await seed(testApp.services).user().verified().project('Shared');
    const viewer = await seed(testApp.services).user().verified().build();
    await addMember(testApp.services, project.id, viewer.id, 'viewer');
    const streams: Stream[] = [];
    for (let tab = 0; tab < 5; tab++) streams.push(await openLiveStream(baseUrl, project.id, viewer.token));
    expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);

    // Over a socket first: without the bound, the sixth would be a stream that never ends.
    const sixthTab = await openLiveStream(baseUrl, project.id, viewer.token);
    sixthTab.request.destroy();
    expect(sixthTab.status).toBe(429);
    const sixth = await live(project.id, viewer.token);
    expect(sixth.statusCode).toBe(429);
    expect(errorOf(sixth)).toMatchObject({
      errorCode: 'RATE_LIMITED',
      message: expect.stringContaining('5 live streams of this project'),
    });

    const ownerStream = await openLiveStream(baseUrl, project.id, owner.token);
    expect(ownerStream.status).toBe(200);
    for (const stream of [...streams, ownerStream]) stream.request.destroy();
  });
});
