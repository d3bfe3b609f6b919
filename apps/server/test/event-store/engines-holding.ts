import type { ClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import {
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { storeRows } from '../support/event-stores.ts';
import { workerChdb } from '../support/worker-chdb.ts';

export type EnginesHolding = { duck: DuckDbEventStore; ch: ClickHouseEventStore; close(): Promise<void> };

/**
 * Both adapters over the same events, for tests that compare their answers: DuckDB in memory holding
 * `rows` once; ClickHouse (the worker's chdb behind its HTTP interface, reached by the adapter's real
 * client, in `database`) holding each of them three times, twice in one segment (one insert, so one part holding each
 * key twice: loads do not collapse duplicates at insert time) and again in a second segment, as a retried
 * load does. Each event must still count once.
 */
export async function enginesHolding(database: string, rows: readonly EventRow[]): Promise<EnginesHolding> {
  // Each engine is made and loaded while the other is (ADR 128): chdb works in its own process.
  const [duckMade, chMade] = await Promise.allSettled([
    createDuckDbEventStore({ file: ':memory:' }).then(async (store) => {
      await storeRows(store, rows);
      return store;
    }),
    workerChdb().then(async (chdb) => {
      const store = await templatedClickHouseStore(`${chdb.url}/${database}`);
      await storeRows(store, [...rows, ...rows]);
      await storeRows(store, rows);
      return store;
    }),
  ]);
  if (duckMade.status === 'rejected' || chMade.status === 'rejected') {
    if (duckMade.status === 'fulfilled') await duckMade.value.close();
    if (chMade.status === 'fulfilled') await chMade.value.close();
    throw duckMade.status === 'rejected' ? duckMade.reason : (chMade as PromiseRejectedResult).reason;
  }
  const duck = duckMade.value;
  const ch = chMade.value;
  return {
    duck,
    ch,
    async close() {
      await ch.close();
      await duck.close();
    },
  };
}
