import { DuckDBInstance } from '@duckdb/node-api';
import {
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';

/**
 * One question (a load, a delete, a set of answers) put to ClickHouse and DuckDB at once, their results in
 * that order: chdb works in its own process while DuckDB works in this one, so a comparison waits for the
 * slower engine rather than for both in turn. The two stores share nothing, so neither's answer depends on
 * the other's being asked; each result is then checked exactly as when they were asked one after the other.
 */
export function askBoth<Store, T>(
  clickhouse: Store,
  duckdb: Store,
  ask: (store: Store) => Promise<T>,
): Promise<[T, T]> {
  return Promise.all([ask(clickhouse), ask(duckdb)]);
}

/**
 * DuckDB threads of the reference stores: three or more make DuckDB start each hash aggregate small and
 * grow it, instead of zeroing 262,144 slots per thread (2 MB) whatever its input, as it does with two
 * threads or fewer (ADR 156). A comparison file asks thousands of questions over a few hundred events, so
 * that fixed cost was most of DuckDB's side of it (ADR 158). The answers do not depend on the thread count.
 */
const REFERENCE_THREADS = 3;

/**
 * The DuckDB store a ClickHouse comparison file checks its answers against (`file`: a path, or ':memory:'):
 * the product's store, on an instance of REFERENCE_THREADS threads. A load runs on one thread and then
 * resets the instance's count to the machine's (event-writer.ts), so the count is set again after each
 * load. The product's own DuckDB, and its exact-answer suites, keep the default count (ADR 156).
 */
export async function referenceDuckDb(file: string): Promise<DuckDbEventStore> {
  const instance = await DuckDBInstance.create(file, {
    checkpoint_threshold: '128MB',
    threads: String(REFERENCE_THREADS),
  });
  let store: DuckDbEventStore;
  try {
    store = await createDuckDbEventStore({ file, instance });
  } catch (error) {
    instance.closeSync();
    throw error;
  }
  const setThreads = async () => {
    const connection = await instance.connect();
    try {
      await connection.run(`SET threads = ${REFERENCE_THREADS}`);
    } finally {
      connection.closeSync();
    }
  };
  return {
    ...store,
    async loadSegment(segment) {
      try {
        return await store.loadSegment(segment);
      } finally {
        await setThreads();
      }
    },
    async close() {
      await store.close();
      instance.closeSync();
    },
  };
}
