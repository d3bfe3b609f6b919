import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { groupBy } from '../../src/lib/group-by.ts';
import { parseClickHouseUrl } from '../../src/modules/event-store/clickhouse/client.ts';
import { duckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import type { EventStoreFactory, EventWriter } from '../../src/modules/event-store/event-store.ts';
import { rowsEntry } from '../../src/modules/ingestion/log-entries.ts';
import { emptiedForReuse, templatedClickHouseStore } from './chdb-template.ts';
import { runChdbUrl } from './worker-chdb.ts';

/**
 * The event store adapters the suites run against. The analytics, acquisition and incident suites ask
 * their exact answers through the port, so a second adapter runs them as they are:
 * `EVENT_STORE=<name> npx vitest run --project server test/analytics test/acquisition test/incidents`.
 */
export const EVENT_STORE_ADAPTERS: Record<string, EventStoreFactory> = {
  duckdb: duckDbEventStore(),
  // ClickHouse's engine (chdb) behind its HTTP interface, started for the run by global-setup.ts, one per
  // worker; each data directory gets a database of its own, reached through the real @clickhouse/client.
  clickhouse: ({ dataDir }) => templatedClickHouseStore(clickHouseUrlFor(dataDir)),
};

/** The database URL of each data directory of this worker until released. */
const databaseOf = new Map<string, string>();
/** Per engine: released databases, emptied, for the next data directories. */
const spareDatabases = new Map<string, string[]>();

/**
 * The CLICKHOUSE_URL of a test server's data directory: the same directory names the same database, as
 * DuckDB's file in it, so a server restarted on it (the incident status suite) finds its events again.
 * A database another directory released (`releaseClickHouseUrl`) is taken before a new one is cloned.
 */
export function clickHouseUrlFor(dataDir: string): string {
  let url = databaseOf.get(dataDir);
  if (!url) {
    const server = clickHouseServerUrl();
    const database =
      spareDatabases.get(server)?.pop() ??
      `pf_${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
    url = `${server}/${database}`;
    databaseOf.set(dataDir, url);
  }
  return url;
}

/**
 * Called when a data directory is removed (its servers closed): its database is emptied to the template's
 * state and kept for the next directory of this worker, instead of cloning a new one (about 60 statements,
 * 0.8 s of the engine's CPU) while the old one's tiny parts are still being merged.
 */
export async function releaseClickHouseUrl(dataDir: string): Promise<void> {
  const url = databaseOf.get(dataDir);
  if (!url) return;
  databaseOf.delete(dataDir);
  if (!(await emptiedForReuse(url))) return;
  const { database } = parseClickHouseUrl(url);
  const server = url.slice(0, -database.length - 1);
  spareDatabases.set(server, [...(spareDatabases.get(server) ?? []), database]);
}

/** This worker's chdb HTTP server: the run's servers are one per worker (global-setup.ts). */
function clickHouseServerUrl(): string {
  const url = runChdbUrl();
  if (!url)
    throw new Error(
      'the chdb HTTP server runs only with EVENT_STORE=clickhouse (test/support/global-setup.ts)',
    );
  return url;
}

/** The adapter named by EVENT_STORE (default duckdb). */
export function chosenEventStore(): EventStoreFactory {
  const name = process.env.EVENT_STORE ?? 'duckdb';
  const factory = EVENT_STORE_ADAPTERS[name];
  if (!factory)
    throw new Error(`EVENT_STORE=${name}: use one of ${Object.keys(EVENT_STORE_ADAPTERS).join(', ')}`);
  return factory;
}

/**
 * Stores rows through the port's write side, as ingestion does: one log segment of rows records (error
 * rows with their incident id), loaded with `loadSegment`.
 */
export async function storeRows(
  store: Pick<EventWriter, 'loadSegment'>,
  rows: readonly EventRow[],
): Promise<void> {
  const lines = [...groupBy(rows, (row) => row.project_id).values()]
    .map((projectRows) => rowsEntry(projectRows).encode(new Set()))
    .join('');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-segment-'));
  try {
    const file = path.join(dir, 'segment.ndjson');
    writeFileSync(file, lines);
    await store.loadSegment(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
