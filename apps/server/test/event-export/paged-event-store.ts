import path from 'node:path';
import { createDuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventStoreFactory } from '../../src/modules/event-store/event-store.ts';
import { templatedClickHouseStore } from '../support/chdb-template.ts';
import { clickHouseUrlFor } from '../support/event-stores.ts';

/**
 * The run's event store (EVENT_STORE, DuckDB unless set) reading an export `pageRows` rows at a time
 * (DuckDB's window, ClickHouse's page), where the product reads thousands: a test sees paging and
 * back-pressure over a few thousand rows.
 */
export function pagedEventStore(pageRows: number): EventStoreFactory {
  const engine = process.env.EVENT_STORE ?? 'duckdb';
  if (engine === 'duckdb')
    return ({ dataDir }) =>
      createDuckDbEventStore({ file: path.join(dataDir, 'events.duckdb'), exportWindowRows: pageRows });
  if (engine === 'clickhouse')
    return ({ dataDir }) => templatedClickHouseStore(clickHouseUrlFor(dataDir), { exportPageRows: pageRows });
  throw new Error(`EVENT_STORE=${engine}: no paged store for it here`);
}
