import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrations.ts';
import { duckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';

/** The embedded stores' files in DATA_DIR (src/db/database.ts, the DuckDB adapter's factory). */
const ACCOUNTS_FILE = 'polyflow.sqlite';
const EVENTS_FILE = 'events.duckdb';

let template: Promise<string> | undefined;

/**
 * A data directory holding a migrated SQLite account store and a created DuckDB event store, made once per
 * worker the first time a test server needs it (ADR 150): every server opens the same two files, so it
 * copies them instead of running the migrations and creating the event store's tables again (about 0.3 s
 * of CPU and a second of fsync-bound wall time a server). Made in the run's folder of templates
 * (global-setup.ts), which is removed after the run: vitest ends its workers without their exit handlers.
 */
function dataDirTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = mkdtempSync(path.join(inject('dataDirTemplates'), 'worker-'));
    const { db } = await createDatabase({ databaseUrl: undefined, dataDir: dir });
    await migrateToLatest(db);
    // Out of WAL mode, SQLite writes the log back into the file and removes it; closing the last DuckDB
    // handle checkpoints its log into the file too: each file alone is the whole store. The server puts
    // SQLite back into WAL mode when it opens the copy.
    await sql`PRAGMA journal_mode = DELETE`.execute(db);
    await db.destroy();
    const events = await duckDbEventStore()({ dataDir: dir });
    await events.close();
    for (const file of [`${ACCOUNTS_FILE}-wal`, `${EVENTS_FILE}.wal`]) {
      if (existsSync(path.join(dir, file))) throw new Error(`the data directory template kept ${file}`);
    }
    return dir;
  })();
  return template;
}

/**
 * Puts the template's account store (SQLite: no DATABASE_URL) and event store (DuckDB: no CLICKHOUSE_URL)
 * into an empty data directory; the server then opens them as it opens a directory it made before.
 */
export async function fillFromTemplate(
  dataDir: string,
  stores: { accounts: boolean; events: boolean },
): Promise<void> {
  if (!stores.accounts && !stores.events) return;
  const from = await dataDirTemplate();
  if (stores.accounts) copyFileSync(path.join(from, ACCOUNTS_FILE), path.join(dataDir, ACCOUNTS_FILE));
  if (stores.events) copyFileSync(path.join(from, EVENTS_FILE), path.join(dataDir, EVENTS_FILE));
}
