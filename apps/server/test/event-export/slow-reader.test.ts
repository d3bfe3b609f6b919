import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import { storeRows } from '../support/event-stores.ts';
import { testConfig } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { pagedEventStore } from './paged-event-store.ts';

/**
 * The export pulls a page from the store only when the client has taken the one before: a client that
 * stops reading leaves the server holding a few pages, not the export. Measured by counting the rows the
 * store hands out against the rows the client has received, through a real socket.
 */

const PAGE_ROWS = 200;
const ROWS = 12_000;
// 2 KB a row (60 pages, ~30 MB of NDJSON): the socket's own buffers, a few MB on loopback, hold a small
// part of the export, so what the server reads ahead of the client shows.
const STACK = 'at swap (https://app.example.com/assets/index-4f3a.js:1:2345)\n'.repeat(32);
const T0 = Date.UTC(2026, 2, 1);

type ExportCounts = { rowsRead: number; isFinished: boolean };

/** The store's export, counting for each export the rows it hands out and whether its reading ended. */
function countingExport(store: EventStore) {
  const exports: ExportCounts[] = [];
  const exportEvents: EventStore['exportEvents'] = async function* (projectId, range) {
    const counts = { rowsRead: 0, isFinished: false };
    exports.push(counts);
    try {
      for await (const batch of store.exportEvents(projectId, range)) {
        counts.rowsRead += batch.rowCount;
        yield batch;
      }
    } finally {
      counts.isFinished = true;
    }
  };
  return { exports, exportEvents };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `value()` has not changed for `quietMs` (the server has read as far as it will). */
async function settled(value: () => number, quietMs = 600, timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = value();
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await pause(50);
    if (value() !== last) {
      last = value();
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= quietMs) return last;
  }
  throw new Error(`still changing after ${timeoutMs} ms`);
}

describe('the raw export to a slow reader', () => {
  let dataDir: string;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let baseUrl: string;
  let counter: ReturnType<typeof countingExport>;
  let exportPath: string;
  let token: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-slow-export-'));
    const open = pagedEventStore(PAGE_ROWS);
    let store: EventStore | undefined;
    app = await buildApp(testConfig(dataDir), {
      eventStore: async (options) => {
        store = await open(options);
        counter = countingExport(store);
        return { ...store, exportEvents: counter.exportEvents };
      },
    });
    await app.ready();
    const seeded = await seed(app.services).user().verified().project();
    token = seeded.user.token;
    const rows: EventRow[] = Array.from({ length: ROWS }, (_, index) =>
      blankRow({
        project_id: seeded.project.id,
        id: `ev-${String(index).padStart(6, '0')}`,
        type: 'error',
        ts: T0 + index,
        received_at: T0 + index,
        user_id: `u${index % 50}`,
        session_id: `s${index % 80}`,
        origin: 'app.example.com',
      }),
    ).map((row) => ({
      ...row,
      error_source: 'window',
      error_message: 'TypeError: boom',
      error_stack: STACK,
    }));
    await storeRows(store as EventStore, rows);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const to = new Date(T0 + 86_400_000).toISOString();
    exportPath = `/api/v1/projects/${seeded.project.id}/export/events?from=${new Date(T0).toISOString()}&to=${to}`;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  type Started = {
    response: IncomingMessage;
    received: { bytes: number; lines: number };
    counts: ExportCounts;
  };

  /** Starts the export and resolves with the response once its first bytes arrived, then paused. */
  function startPaused(): Promise<Started> {
    return new Promise((resolve, reject) => {
      // A connection of its own (Node's agent keeps sockets alive): a socket reused from a whole export
      // before has grown its buffers to match, and would hold many more pages for a paused client.
      const outgoing = request(`${baseUrl}${exportPath}`, {
        agent: false,
        headers: { authorization: `Bearer ${token}` },
      });
      outgoing.on('error', reject);
      outgoing.on('response', (response) => {
        if (response.statusCode !== 200) reject(new Error(`export answered ${response.statusCode}`));
        const received = { bytes: 0, lines: 0 };
        response.on('data', (chunk: Buffer) => {
          received.bytes += chunk.length;
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) received.lines += 1;
        });
        response.once('data', () => {
          response.pause();
          const counts = counter.exports.at(-1);
          if (!counts) reject(new Error('the export did not read through the store'));
          else resolve({ response, received, counts });
        });
      });
      outgoing.end();
    });
  }

  it('reads a few pages ahead of a client that stopped reading, and the rest as it reads on', async () => {
    const { response, received, counts } = await startPaused();
    const readWhilePaused = await settled(() => counts.rowsRead);
    // What the server holds for this client: read from the store but not yet received by it (some of
    // it in the sockets' buffers). A server that ignored back-pressure would have read all 12,000.
    const aheadOfClient = readWhilePaused - received.lines;
    expect(readWhilePaused).toBeLessThan(ROWS / 3);
    expect(aheadOfClient).toBeLessThan(ROWS / 3);
    expect(counts.isFinished).toBe(false);

    const ended = new Promise((resolve) => response.once('end', resolve));
    response.resume();
    await ended;
    expect(received.lines).toBe(ROWS);
    expect(counts.rowsRead).toBe(ROWS);
    expect(counts.isFinished).toBe(true);
  }, 60_000);

  it('stops reading the store when the client goes away mid-export', async () => {
    const { response, counts } = await startPaused();
    const readBeforeLeaving = await settled(() => counts.rowsRead);
    response.destroy();
    // Until the server has seen the socket close and ended the store's reading (a fixed quiet time is
    // too short on a loaded machine), then as far as it read.
    const deadline = Date.now() + 15_000;
    while (!counts.isFinished && Date.now() < deadline) await pause(50);
    expect(counts.isFinished).toBe(true);
    // At most the page being read when the client left, and the one the stream had asked for.
    expect(counts.rowsRead - readBeforeLeaving).toBeLessThanOrEqual(2 * PAGE_ROWS);
    expect(counts.rowsRead).toBeLessThan(ROWS / 3);
  }, 60_000);
});
