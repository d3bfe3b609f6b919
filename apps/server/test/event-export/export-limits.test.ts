import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeRows } from '../support/event-stores.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { type SeededUser, seed } from '../support/seed.ts';
import { heavyErrorRows, startPausedExport } from './held-exports.ts';
import { pagedEventStore } from './paged-event-store.ts';

/**
 * At most 2 exports of a project and (here) 3 of the node run at once: one more answers 429
 * TOO_MANY_EXPORTS with Retry-After, and a slot is given back when its response ends, whether it was
 * read to the end or abandoned by the client (docs/data-access-and-privacy.md).
 */
const ROWS = 6_000;

let app: TestApp;
let baseUrl: string;

beforeAll(async () => {
  // 1,000-row pages instead of the product's many thousands: an export paused by its client stops after a
  // few pages instead of reading all its rows at once, as a long export does.
  app = await startTestApp(
    'sqlite',
    { exportLimits: { perProject: 2, perNode: 3 } },
    { eventStore: pagedEventStore(1_000) },
  );
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
});

async function projectWithEvents(
  name: string,
  count = ROWS,
): Promise<{ projectId: string; user: SeededUser }> {
  const { user, project } = await seed(app.services).user().verified().project(name);
  const rows = heavyErrorRows(project.id, count);
  if (rows.length > 0) await storeRows(app.services.eventStore, rows);
  return { projectId: project.id, user };
}

const startExport = (projectId: string, token: string) => startPausedExport(baseUrl, projectId, token);

const drained = (response: IncomingMessage) =>
  new Promise<number>((resolve) => {
    let bytes = 0;
    response.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    response.on('end', () => resolve(bytes));
    response.resume();
  });

describe('export limits', () => {
  it('refuses a third export of a project and a fourth of the node with 429 TOO_MANY_EXPORTS, and frees slots', async () => {
    const a = await projectWithEvents('A');
    const b = await projectWithEvents('B');
    // C's exports are refused, or only answered: a slot is taken before the first row is read.
    const c = await projectWithEvents('C', 0);
    const first = await startExport(a.projectId, a.user.token);
    const second = await startExport(a.projectId, a.user.token);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);

    const third = await startExport(a.projectId, a.user.token);
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe('30');
    const body = JSON.parse(
      await new Promise<string>((resolve) => {
        let text = '';
        third.setEncoding('utf8');
        third.on('data', (chunk: string) => {
          text += chunk;
        });
        third.on('end', () => resolve(text));
        third.resume();
      }),
    );
    expect(body).toMatchObject({
      errorCode: 'TOO_MANY_EXPORTS',
      message: expect.stringContaining('2 exports'),
    });

    // Another project has room of its own, up to the node's limit.
    const other = await startExport(b.projectId, b.user.token);
    expect(other.statusCode).toBe(200);
    const overNode = await startExport(c.projectId, c.user.token);
    expect(overNode.statusCode).toBe(429);
    overNode.resume();

    // Read to the end: the slot is given back.
    expect(await drained(other)).toBeGreaterThan(ROWS * 1000);
    // Abandoned by its client: the slot is given back too.
    first.destroy();
    let retried: IncomingMessage | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      retried = await startExport(a.projectId, a.user.token);
      if (retried.statusCode === 200) break;
      retried.resume();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(retried?.statusCode).toBe(200);
    const fromC = await startExport(c.projectId, c.user.token);
    expect(fromC.statusCode).toBe(200);
    for (const response of [second, retried as IncomingMessage, fromC]) response.destroy();
  }, 60_000);
});
