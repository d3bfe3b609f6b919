import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import { rowsOfRecord } from '../../src/modules/event-store/log-records.ts';
import { createIngestLog } from '../../src/modules/ingest-log/ingest-log.ts';
import { createLogWriter } from '../../src/modules/ingest-log/log-writer.ts';
import { batchEntry, rowsEntry } from '../../src/modules/ingestion/log-entries.ts';

const HOUR_MS = 3_600_000;

function row(id: string, overrides: Partial<EventRow> = {}): EventRow {
  return {
    ...blankRow({
      project_id: 'p1',
      id,
      type: 'page_view',
      ts: 1_700_000_000_000,
      received_at: 1_700_000_000_001,
      user_id: 'u1',
      session_id: 's1',
      origin: 'app.example.com',
    }),
    ...overrides,
  };
}

/** A "store" that keeps what the loader gave it: the records as JSON, and their rows (log-records.ts). */
function recordingStore() {
  const records: Record<string, unknown>[] = [];
  const loaded: EventRow[] = [];
  return {
    records,
    loaded,
    ids: () => loaded.map((stored) => stored.id),
    async load(file: string) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line) continue;
        records.push(JSON.parse(line));
        loaded.push(...rowsOfRecord(line));
      }
    },
  };
}

/** The writer as group commit uses it, one request of rows at a time: per row, whether it was new. */
async function insertRows(writer: ReturnType<typeof open>, rows: EventRow[]): Promise<boolean[]> {
  const [isNew = []] = await writer.append([rowsEntry(rows)]);
  return isNew;
}

const writers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const writer of writers.splice(0)) await writer.close().catch(() => undefined);
});

function open(dir: string, load: (segmentFile: string) => Promise<void>, loadIntervalMs = HOUR_MS) {
  const writer = createLogWriter({ dir, load, loadIntervalMs });
  writers.push(writer);
  return writer;
}

describe('ingestion log', () => {
  it('keeps acknowledged rows on disk until loaded, and loads them after a crash', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-log-'));
    // First run: the store never receives anything (the process "dies" before the loader runs).
    const first = open(dir, async () => {
      throw new Error('store unavailable');
    });
    expect(await insertRows(first, [row('a1'), row('a2', { tx_value: 10n ** 30n })])).toEqual([true, true]);
    expect(await insertRows(first, [row('a3')])).toEqual([true]);
    // A record whose write was cut short by the crash: never acknowledged, so dropped on restart.
    const [segment] = readdirSync(dir);
    appendFileSync(path.join(dir, segment as string), '{"project_id":"p1","id":"torn"');

    const store = recordingStore();
    const second = open(dir, store.load);
    // A retry of an acknowledged row still in the log is a duplicate, not a new row.
    expect(await insertRows(second, [row('a2'), row('b1')])).toEqual([false, true]);
    await second.flush();
    expect(store.ids()).toEqual(['a1', 'a2', 'a3', 'b1']);
    expect(store.records[1]).toMatchObject({ project_id: 'p1', tx_value: String(10n ** 30n) });
    expect(store.records[1]).not.toHaveProperty('path');
    // Loaded segments are deleted.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('flush() waits for everything acknowledged before it; close() loads the rest', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-log-'));
    const store = recordingStore();
    const writer = open(dir, store.load, 5);
    await insertRows(writer, [row('c1')]);
    await writer.flush();
    expect(store.ids()).toEqual(['c1']);
    await insertRows(writer, [row('c2')]);
    await writer.close();
    expect(store.ids()).toEqual(['c1', 'c2']);
    await expect(insertRows(writer, [row('c3')])).rejects.toThrow(/closed/);
  });

  it('keeps a segment whose load failed and loads it on the next attempt', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-log-'));
    const store = recordingStore();
    let isDown = true;
    const writer = open(dir, async (file) => {
      if (isDown) throw new Error('store unavailable');
      await store.load(file);
    });
    await insertRows(writer, [row('d1')]);
    await expect(writer.flush()).rejects.toThrow(/unavailable/);
    expect(readFileSync(path.join(dir, readdirSync(dir)[0] as string), 'utf8')).toContain('"id":"d1"');
    isDown = false;
    await insertRows(writer, [row('d2')]);
    await writer.flush();
    expect(store.ids()).toEqual(['d1', 'd2']);
  });
});

describe('the loader schedule', () => {
  it('loads once enough events wait (not before, however many bytes), or once the delay has passed', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-log-'));
    const store = recordingStore();
    const writer = createLogWriter({
      dir,
      load: store.load,
      loadIntervalMs: 10,
      loadEvents: 4,
      maxLoadDelayMs: HOUR_MS,
    });
    writers.push(writer);
    const waitForLooks = () => new Promise((resolve) => setTimeout(resolve, 100));
    // Nothing was loaded since the start: the first event goes in at the next look.
    await insertRows(writer, [row('a0')]);
    await waitForLooks();
    expect(store.ids()).toEqual(['a0']);
    // Three events, one of them many kilobytes long: fewer than four, so no load however long they wait.
    await insertRows(writer, [row('a1'), row('a2', { title: 'x'.repeat(100_000) }), row('a3')]);
    await waitForLooks();
    expect(store.ids()).toEqual(['a0']);
    // A retry of a3 adds nothing; a fourth new event makes four waiting.
    await insertRows(writer, [row('a3'), row('a4')]);
    await waitForLooks();
    expect(store.ids()).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);

    const timed = createLogWriter({
      dir,
      load: store.load,
      loadIntervalMs: 10,
      loadEvents: 1000,
      maxLoadDelayMs: 50,
    });
    writers.push(timed);
    await insertRows(timed, [row('b1')]);
    await waitForLooks();
    expect(store.ids()).toContain('b1');
  });

  it('under a heavy stream, waits longer for a full load before the delay', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-log-'));
    const store = recordingStore();
    const writer = createLogWriter({
      dir,
      load: store.load,
      loadIntervalMs: 10,
      loadEvents: 10,
      maxLoadDelayMs: 50,
      maxHeavyLoadDelayMs: 1500,
    });
    writers.push(writer);
    // The first look after start loads whatever waits.
    await insertRows(writer, [row('c0')]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(store.ids()).toEqual(['c0']);
    // A fifth of a load or more since then is a heavy stream: past the usual delay it still waits ...
    await insertRows(writer, [row('c1'), row('c2'), row('c3')]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(store.ids()).toEqual(['c0']);
    // ... until the longer one has passed.
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(store.ids()).toEqual(['c0', 'c1', 'c2', 'c3']);
    // A light stream (fewer than a fifth) goes in after the usual delay.
    await insertRows(writer, [row('c4')]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(store.ids()).toContain('c4');
  });
});

describe('SDK batches in the ingestion log', () => {
  const request = {
    project: 'p1',
    origin: 'app.example.com',
    receivedAt: 1_700_000_000_001,
    sdk: 'polyflow/1.0.0',
    country: 'GB',
    browser: 'Chrome',
    os: 'Linux',
    device: 'desktop',
  };
  const event = (id: string) =>
    ({ id, type: 'page_view', ts: 1_700_000_000_000, userId: 'u1', sessionId: 's1', path: '/' }) as const;

  it('writes only new events, as rows records of the request and event, and knows them again after a restart', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-log-'));
    const first = open(dir, async () => {
      throw new Error('store unavailable');
    });
    // One group: a batch, a retry of one of its events racing it, and rows from the GraphQL path.
    const isNew = await first.append([
      batchEntry(request, [event('b1'), event('b2')]),
      batchEntry(request, [event('b2'), event('b3')]),
      rowsEntry([row('r1')]),
    ]);
    expect(isNew).toEqual([[true, true], [false, true], [true]]);

    const store = recordingStore();
    const second = open(dir, store.load);
    // Acknowledged before the "crash": duplicates now, and not written again.
    expect(await second.append([batchEntry(request, [event('b1'), event('b4')])])).toEqual([[false, true]]);
    await second.flush();
    expect(store.ids()).toEqual(['b1', 'b2', 'b3', 'r1', 'b4']);
    expect(store.loaded[0]).toMatchObject({
      project_id: 'p1',
      origin: 'app.example.com',
      received_at: 1_700_000_000_001,
      sdk: 'polyflow/1.0.0',
      country: 'GB',
      browser: 'Chrome',
      os: 'Linux',
      device: 'desktop',
      ts: 1_700_000_000_000,
      user_id: 'u1',
      path: '/',
    });
  });

  it('gives error events their incident id on the way in', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-log-'));
    const store = recordingStore();
    const writer = open(dir, store.load);
    const error = {
      ...event('e1'),
      type: 'error',
      source: 'window',
      message: 'TypeError: x is undefined',
    } as const;
    await writer.append([batchEntry(request, [error, event('p1')])]);
    await writer.flush();
    const [stored, pageView] = store.loaded;
    expect(stored).toMatchObject({ id: 'e1', incident_id: expect.stringMatching(/^inc_[0-9a-f]{24}$/) });
    expect(pageView).toMatchObject({ id: 'p1', incident_id: null });
  });
});

describe('the ingestion log backlog', () => {
  it('counts the bytes acknowledged and not loaded yet, on disk across a restart', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-log-'));
    const first = open(dir, async () => {
      throw new Error('store unavailable');
    });
    expect(first.pendingBytes()).toBe(0);
    await insertRows(first, [row('k1'), row('k2')]);
    const afterTwo = first.pendingBytes();
    expect(afterTwo).toBe(readFileSync(path.join(dir, readdirSync(dir)[0] as string)).length);
    await insertRows(first, [row('k2')]);
    expect(first.pendingBytes()).toBe(afterTwo); // a duplicate writes nothing

    const store = recordingStore();
    const second = open(dir, store.load);
    expect(second.pendingBytes()).toBe(afterTwo);
    await second.flush();
    expect(second.pendingBytes()).toBe(0);
  });
});

describe('the ingestion log file', () => {
  it('holds exactly the bytes of every append, in order, whatever their sizes and characters', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-log-'));
    const log = createIngestLog(dir);
    // Each append goes through one buffer reused from append to append: a large one makes it grow, and
    // a smaller one after it must not carry the larger one's tail.
    const appends = [
      ['{"a":"é"}\n', '{"b":"日本"}\n'],
      [`{"big":"${'x'.repeat(1_500_000)}"}\n`, '{"c":"🦊"}\n'],
      ['{"d":1}\n'],
    ];
    for (const records of appends) await log.append(records);
    await log.close();

    const [segment] = log.closedSegments();
    const text = readFileSync(log.pathOf(segment as string), 'utf8');
    expect(text).toBe(appends.flat().join(''));
    expect(log.pendingBytes()).toBe(Buffer.byteLength(text));
  });
});
