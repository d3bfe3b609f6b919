import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { createFairScheduler } from '../../src/modules/event-store/fair-scheduler.ts';
import { storeRows } from '../support/event-stores.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { eventBuilder } from './event-builder.ts';

/**
 * ADR 091: the ClickHouse adapter's queries take turns per project, an export's windows one at a time
 * node-wide, so that a project's dashboard question waits for at most one export window however many
 * exports another project runs. Checked against the real engine (chdb) behind a proxy that, like a busy
 * engine, answers one request at a time and holds each export window until the test lets it go: the order
 * in which it answers says what the question waited for.
 */

const EXPORTING = 'p-turns-exporting';
const DASHBOARD = 'p-turns-dashboard';
const DAY0 = Date.UTC(2026, 2, 1);
const RANGE = { from: new Date(DAY0), to: new Date(DAY0 + 86_400_000) };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const endAt = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > endAt) throw new Error('timed out');
    await sleep(10);
  }
}

const bodyOf = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/**
 * An HTTP proxy to chdb that forwards one request at a time, in arrival order, and holds an export
 * window (a `TabSeparatedRaw` query) until `release()`; `answered` lists what it answered, in order.
 */
async function startSerialProxy(chdbUrl: string) {
  const direct = new URL(chdbUrl);
  const target = `http://${direct.host}`;
  const answered: ('window' | 'span' | 'other')[] = [];
  let permits = 0;
  let held = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((request, response) => {
    queue = queue.then(async () => {
      const body = await bodyOf(request);
      const text = `${decodeURIComponent(request.url ?? '')} ${body.toString('utf8')}`;
      const kind = text.includes('TabSeparatedRaw')
        ? 'window'
        : text.includes('AS first_ms')
          ? 'span'
          : 'other';
      if (kind === 'window') {
        held++;
        await until(() => permits > 0, 60_000);
        permits--;
        held--;
      }
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          ([name]) =>
            !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(name),
        ),
      ) as Record<string, string>;
      const answer = await fetch(`${target}${request.url}`, {
        method: request.method,
        headers,
        ...(request.method === 'GET' || request.method === 'HEAD' ? {} : { body }),
      });
      const bytes = Buffer.from(await answer.arrayBuffer());
      const kept = [...answer.headers].filter(
        ([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name),
      );
      response.writeHead(answer.status, Object.fromEntries(kept));
      response.end(bytes);
      answered.push(kind);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${direct.username}:${direct.password}@127.0.0.1:${port}`,
    answered,
    held: () => held,
    release: () => {
      permits++;
    },
    releaseAll: () => {
      permits = Number.POSITIVE_INFINITY;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('ClickHouse queries take turns per project (ADR 091)', () => {
  // An engine of its own: the control case counts the windows answered within a time, which an earlier file's
  // background merges in a shared engine could stretch (ADR 104).
  const chdb = useChdbSuite('polyflow-query-turns-', 120_000, { engine: 'own' });
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /**
   * Six CSV exports of the exporting project (windows of 10 of its 60 events) are under way, each window
   * held by the engine; then the other project asks a question. Answers how many windows the engine
   * answered between the question and its answer.
   */
  async function windowsBeforeTheQuestion(
    database: string,
    querySlots?: { slots: number; maxLong: number },
  ): Promise<number> {
    const proxy = await startSerialProxy(chdb.url);
    cleanups.push(proxy.close);
    const store: ClickHouseEventStore = await createClickHouseEventStore(`${proxy.url}/${database}`, {
      exportPageRows: 10,
      ...(querySlots ? { querySlots } : {}),
    });
    cleanups.push(() => store.close());
    const exporting = eventBuilder(EXPORTING);
    const dashboard = eventBuilder(DASHBOARD);
    await storeRows(store, [
      ...Array.from({ length: 60 }, (_, index) => exporting('page_view', DAY0 + index * 60_000)),
      dashboard('page_view', DAY0 + 1_000),
      dashboard('page_view', DAY0 + 2_000),
    ]);

    const exports = Array.from({ length: 6 }, () =>
      store
        .exportEvents(EXPORTING, { ...RANGE, text: { format: 'csv', timeZone: null } })
        [Symbol.asyncIterator](),
    );
    const draining = exports.map(async (batches) => {
      for (let next = await batches.next(); !next.done; next = await batches.next());
    });
    await until(() => proxy.held() >= 1);
    // Time for every export's first window to reach the engine, were nothing holding them back.
    await sleep(500);
    const from = proxy.answered.length;
    let span: { firstMs: number } | null | undefined;
    const asked = store.eventSpan(DASHBOARD).then((answer) => {
      span = answer;
    });
    while (span === undefined) {
      proxy.release();
      await sleep(50);
    }
    await asked;
    expect(span?.firstMs).toBe(DAY0 + 1_000);
    const order = proxy.answered.slice(from);
    const windows = order.slice(0, order.indexOf('span')).filter((kind) => kind === 'window').length;
    proxy.releaseAll();
    await Promise.all(draining);
    return windows;
  }

  it("lets another project's question wait for one export window, not for six", async () => {
    expect(await windowsBeforeTheQuestion('turns_fair')).toBeLessThanOrEqual(1);
  }, 60_000);

  it('(the control: with every query sent at once, as before, the question waits for every window)', async () => {
    expect(
      await windowsBeforeTheQuestion('turns_unbounded', { slots: 64, maxLong: 64 }),
    ).toBeGreaterThanOrEqual(5);
  }, 60_000);
});

describe('the fair scheduler with the ClickHouse adapter’s slots', () => {
  /** Work that holds its slot until ended, and says when it started. */
  function held(started: string[], name: string) {
    let end: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    return {
      end: () => end(),
      work: async () => {
        started.push(name);
        await ended;
        return name;
      },
    };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('runs one long read at a time node-wide, and a dashboard’s questions beside it at once', async () => {
    const scheduler = createFairScheduler({ slots: 4, maxLong: 1 });
    const started: string[] = [];
    const windows = Array.from({ length: 6 }, (_, index) => held(started, `window-${index + 1}`));
    const exported = windows.map((window, index) =>
      scheduler.run(index % 2 ? 'exporting' : 'exporting-too', window.work, true),
    );
    await settle();
    expect(started).toEqual(['window-1']);
    const questions = Array.from({ length: 3 }, (_, index) => held(started, `question-${index + 1}`));
    const asked = questions.map((question) => scheduler.run('dashboard', question.work));
    await settle();
    expect(started).toEqual(['window-1', 'question-1', 'question-2', 'question-3']);
    expect(scheduler.load()).toEqual({ running: 4, longRunning: 1, waiting: 5 });
    for (const question of questions) question.end();
    await Promise.all(asked);
    for (const window of windows) {
      window.end();
      await settle();
    }
    await Promise.all(exported);
    expect(started.slice(4)).toEqual(['window-2', 'window-3', 'window-4', 'window-5', 'window-6']);
    expect(scheduler.load()).toEqual({ running: 0, longRunning: 0, waiting: 0 });
  });

  it('gives a freed slot to the project served least recently, and frees the slot of work that fails', async () => {
    const scheduler = createFairScheduler({ slots: 1, maxLong: 1 });
    const started: string[] = [];
    const busy = Array.from({ length: 3 }, (_, index) => held(started, `busy-${index + 1}`));
    const failing = scheduler.run('busy', async () => {
      started.push('busy-0');
      await settle();
      throw new Error('refused');
    });
    const asked = busy.map((work) => scheduler.run('busy', work.work));
    const other = held(started, 'other-1');
    const otherAsked = scheduler.run('other', other.work);
    await expect(failing).rejects.toThrow('refused');
    await settle();
    expect(started).toEqual(['busy-0', 'other-1']);
    other.end();
    await otherAsked;
    for (const work of busy) {
      work.end();
      await settle();
    }
    await Promise.all(asked);
    expect(started).toEqual(['busy-0', 'other-1', 'busy-1', 'busy-2', 'busy-3']);
  });
});
