import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeRows } from '../support/event-stores.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { heavyErrorRows, startPausedExport } from './held-exports.ts';
import { pagedEventStore } from './paged-event-store.ts';

/**
 * Round-39 attack: one account made 4 projects, opened 2 exports of each and never read them. The node's 8
 * export slots stayed taken for as long as it kept the sockets open, and every other tenant's export was
 * refused with 429. Now one user runs at most half the node's exports (here 2 of 4), and an export whose
 * client takes nothing of what it was sent for `stallMs` (here 1 s) is ended and gives its slot back
 * (docs/data-access-and-privacy.md).
 */
const ROWS = 6_000;

let app: TestApp;
let baseUrl: string;

beforeAll(async () => {
  app = await startTestApp(
    'sqlite',
    { exportLimits: { perProject: 2, perNode: 4, stallMs: 1_000 } },
    { eventStore: pagedEventStore(1_000) },
  );
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
});

async function storeEvents(projectId: string): Promise<void> {
  await storeRows(app.services.eventStore, heavyErrorRows(projectId, ROWS));
}

const startExport = (projectId: string, token: string) => startPausedExport(baseUrl, projectId, token);

const bodyOf = (response: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      text += chunk;
    });
    response.on('end', () => resolve(text));
    response.resume();
  });

describe('export slots against one tenant holding them', () => {
  it("gives one user at most half the node's exports, and ends the exports of a client that reads nothing", async () => {
    const hoarder = seed(app.services).user().verified();
    const { project: first, user } = await hoarder.project('Hoard 1');
    const { project: second } = await hoarder.project('Hoard 2');
    await storeEvents(first.id);
    await storeEvents(second.id);
    const other = await seed(app.services).user().verified().project('Other');
    await storeEvents(other.project.id);

    const held = [await startExport(first.id, user.token), await startExport(first.id, user.token)];
    expect(held.map((response) => response.statusCode)).toEqual([200, 200]);
    // Another project of the same user: the node has room, the user has not.
    const third = await startExport(second.id, user.token);
    expect(third.statusCode).toBe(429);
    expect(JSON.parse(await bodyOf(third))).toMatchObject({
      errorCode: 'TOO_MANY_EXPORTS',
      message: expect.stringContaining('You already have 2 exports'),
    });
    const fromOther = await startExport(other.project.id, other.user.token);
    expect(fromOther.statusCode).toBe(200);
    fromOther.destroy();

    // The held exports' client reads nothing: after the stall time they are ended and their slots freed.
    const started = Date.now();
    let again: IncomingMessage | undefined;
    while (Date.now() - started < 15_000) {
      again = await startExport(second.id, user.token);
      if (again.statusCode === 200) break;
      again.resume();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(again?.statusCode).toBe(200);
    // A client that reads is not ended: the whole export arrives.
    expect((await bodyOf(again as IncomingMessage)).length).toBeGreaterThan(ROWS * 1000);
    for (const response of held) response.destroy();
  }, 60_000);
});
