import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { blankRow, type EventRow } from '../../src/modules/events/event-row.ts';
import { createLogWriter } from '../../src/modules/events/log-writer.ts';

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

/** A "store" that keeps what the loader gave it, as parsed rows. */
function recordingStore() {
  const loaded: Record<string, unknown>[] = [];
  return {
    loaded,
    ids: () => loaded.map((stored) => stored.id),
    async load(json: string) {
      loaded.push(...(JSON.parse(json) as Record<string, unknown>[]));
    },
  };
}

const writers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const writer of writers.splice(0)) await writer.close().catch(() => undefined);
});

function open(dir: string, load: (json: string) => Promise<void>, loadIntervalMs = HOUR_MS) {
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
    expect(await first.insertBatch([row('a1'), row('a2', { tx_value: 10n ** 30n })])).toEqual([true, true]);
    expect(await first.insertBatch([row('a3')])).toEqual([true]);
    // A record whose write was cut short by the crash: never acknowledged, so dropped on restart.
    const [segment] = readdirSync(dir);
    appendFileSync(path.join(dir, segment as string), '{"project_id":"p1","id":"torn"');

    const store = recordingStore();
    const second = open(dir, store.load);
    // A retry of an acknowledged row still in the log is a duplicate, not a new row.
    expect(await second.insertBatch([row('a2'), row('b1')])).toEqual([false, true]);
    await second.flush();
    expect(store.ids()).toEqual(['a1', 'a2', 'a3', 'b1']);
    expect(store.loaded[1]).toMatchObject({ project_id: 'p1', tx_value: String(10n ** 30n) });
    expect(store.loaded[1]).not.toHaveProperty('path');
    // Loaded segments are deleted.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('flush() waits for everything acknowledged before it; close() loads the rest', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-log-'));
    const store = recordingStore();
    const writer = open(dir, store.load, 5);
    await writer.insertBatch([row('c1')]);
    await writer.flush();
    expect(store.ids()).toEqual(['c1']);
    await writer.insertBatch([row('c2')]);
    await writer.close();
    expect(store.ids()).toEqual(['c1', 'c2']);
    await expect(writer.insertBatch([row('c3')])).rejects.toThrow(/closed/);
  });

  it('keeps a segment whose load failed and loads it on the next attempt', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-log-'));
    const store = recordingStore();
    let isDown = true;
    const writer = open(dir, async (json) => {
      if (isDown) throw new Error('store unavailable');
      await store.load(json);
    });
    await writer.insertBatch([row('d1')]);
    await expect(writer.flush()).rejects.toThrow(/unavailable/);
    expect(readFileSync(path.join(dir, readdirSync(dir)[0] as string), 'utf8')).toContain('"id":"d1"');
    isDown = false;
    await writer.insertBatch([row('d2')]);
    await writer.flush();
    expect(store.ids()).toEqual(['d1', 'd2']);
  });
});
