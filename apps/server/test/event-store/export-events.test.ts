import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchRows } from '../../src/modules/event-store/event-batch.ts';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import { DAY_MS } from '../../src/reading/time-range.ts';
import { chosenEventStore, storeRows } from '../support/event-stores.ts';

const PROJECT = 'p-export';
const OTHER = 'p-other';
const T0 = Date.UTC(2026, 2, 1);

function row(projectId: string, index: number, ts: number): EventRow {
  return blankRow({
    project_id: projectId,
    // Not in time order: the export orders by (ts, id) itself.
    id: `ev-${String((index * 7919) % 100_000).padStart(5, '0')}-${index}`,
    type: 'page_view',
    ts,
    received_at: ts,
    user_id: `u${index % 13}`,
    session_id: `s${index % 29}`,
    origin: 'app.example.com',
  });
}

async function exported(store: EventStore, projectId: string, from: number, to: number) {
  const pages: EventRow[][] = [];
  for await (const batch of store.exportEvents(projectId, { from: new Date(from), to: new Date(to) })) {
    pages.push(batchRows(batch));
  }
  return pages;
}

describe("the event store's export (port: exportEvents)", () => {
  let dir: string;
  let store: EventStore;
  // Ten rows per client millisecond, over more than one page of any sensible size: page boundaries fall
  // between rows of the same ts, which a keyset on ts alone would skip or repeat.
  const rows = Array.from({ length: 10_050 }, (_, index) => row(PROJECT, index, T0 + Math.floor(index / 10)));

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-export-'));
    store = await chosenEventStore()({ dataDir: dir });
    await storeRows(store, [...rows, row(OTHER, 1, T0), row(OTHER, 2, T0 + DAY_MS)]);
  }, 60_000);

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const byTimeAndId = (a: EventRow, b: EventRow) => a.ts - b.ts || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  it('gives every row of the project in [from, to) once, in (ts, id) order, in bounded pages', async () => {
    const pages = await exported(store, PROJECT, T0, T0 + DAY_MS);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(10_000);
    expect(pages.flat()).toEqual([...rows].sort(byTimeAndId));
  });

  it('includes from and excludes to, and no other project', async () => {
    // ts T0+1 holds rows 10..19; T0+5 holds 50..59 (excluded).
    const pages = await exported(store, PROJECT, T0 + 1, T0 + 5);
    const ids = pages.flat().map((event) => event.id);
    expect(ids).toEqual(
      rows
        .slice(10, 50)
        .sort(byTimeAndId)
        .map((event) => event.id),
    );
    expect((await exported(store, OTHER, T0, T0 + 2 * DAY_MS)).flat().map((event) => event.user_id)).toEqual([
      'u1',
      'u2',
    ]);
    expect(await exported(store, 'p-none', T0, T0 + DAY_MS)).toEqual([]);
  });
});
