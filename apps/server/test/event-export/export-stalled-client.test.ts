import { type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { storeRows } from '../support/event-stores.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { pagedEventStore } from './paged-event-store.ts';

/**
 * Round-39 attack: one account made 4 projects, opened 2 exports of each and never read them. The node's 8
 * export slots stayed taken for as long as it kept the sockets open, and every other tenant's export was
 * refused with 429. Now one user runs at most half the node's exports (here 2 of 4), and an export whose
 * client takes nothing of what it was sent for `stallMs` (here 1 s) is ended and gives its slot back
 * (docs/data-access-and-privacy.md).
 */
const ROWS = 6_000;
// ~2 KB a row, ~12 MB an export: more than the loopback socket's buffers, so a client that stops reading
// leaves the export waiting for it.
const STACK = 'at swap (https://app.example.com/assets/index-4f3a.js:1:2345)\n'.repeat(32);
const T0 = Date.UTC(2026, 2, 1);

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
  const rows: EventRow[] = Array.from({ length: ROWS }, (_, index) => ({
    ...blankRow({
      project_id: projectId,
      id: `ev-${index}`,
      type: 'error',
      ts: T0 + index,
      received_at: T0 + index,
      user_id: 'u',
      session_id: 's',
      origin: 'app.example.com',
    }),
    error_message: 'boom',
    error_stack: STACK,
  }));
  await storeRows(app.services.eventStore, rows);
}

/** Starts an export and reads nothing after its head. */
function startExport(projectId: string, token: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const asked = request(
      `${baseUrl}/api/v1/projects/${projectId}/export/events?from=2026-03-01&to=2026-03-02`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    asked.on('error', reject);
    asked.on('response', (response) => {
      response.pause();
      response.on('error', () => {});
      resolve(response);
    });
    asked.end();
  });
}

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
