import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { DuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { mainProjectEvents, sameInstantEvents } from '../analytics/events-fixture.ts';
import { edgeEvents } from './edge-events.ts';
import { type EnginesHolding, enginesHolding } from './engines-holding.ts';

/**
 * A transaction's stages by hash or id (ADR 044: two queries, the events read without FINAL): ClickHouse
 * answers as DuckDB does with every event loaded three times, twice in one part and once in another, so a
 * stage's copies must be dropped by the query itself, never by a merge.
 */

const PROJECT = 'prj_tx_events';
const SAME_INSTANT = 'prj_tx_same_instant';
const EDGES = 'prj_tx_edges';
const SLOW = 120_000;

let engines: EnginesHolding;
let duck: DuckDbEventStore;
let ch: ClickHouseEventStore;
const rows: EventRow[] = [
  ...mainProjectEvents(PROJECT),
  ...sameInstantEvents(SAME_INSTANT),
  ...edgeEvents(EDGES),
];

beforeAll(async () => {
  engines = await enginesHolding('pf_tx_events', rows);
  ({ duck, ch } = engines);
}, SLOW);

afterAll(async () => {
  await engines?.close();
});

describe('transaction stages on ClickHouse, against DuckDB', { timeout: SLOW }, () => {
  it('every transaction by its id and by its hash, each stage once, oldest first', async () => {
    const keys = new Map<string, Set<string>>();
    for (const row of rows) {
      if (row.type !== 'tx' || !row.tx_id) continue;
      const ofProject = keys.get(row.project_id) ?? new Set<string>();
      keys.set(row.project_id, ofProject);
      ofProject.add(row.tx_id);
      if (row.tx_hash) ofProject.add(row.tx_hash);
    }
    expect(keys.get(PROJECT)?.size).toBeGreaterThan(10);
    let stages = 0;
    for (const [projectId, ofProject] of keys) {
      for (const key of ofProject) {
        const expected = await duck.transactionEvents(projectId, key);
        expect(expected.length, key).toBeGreaterThan(0);
        expect(await ch.transactionEvents(projectId, key), `${projectId} ${key}`).toEqual(expected);
        stages += expected.length;
      }
    }
    expect(stages).toBeGreaterThan(30);
  });

  it('nothing for an unknown key, or for a key of another project', async () => {
    const [first] = rows.filter((row) => row.project_id === PROJECT && row.tx_hash);
    expect(await ch.transactionEvents(PROJECT, '0xnothing')).toEqual([]);
    expect(await ch.transactionEvents(SAME_INSTANT, first?.tx_hash as string)).toEqual([]);
    expect(await ch.transactionEvents(SAME_INSTANT, first?.tx_id as string)).toEqual(
      await duck.transactionEvents(SAME_INSTANT, first?.tx_id as string),
    );
  });
});
