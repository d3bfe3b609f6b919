import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrations.ts';
import {
  asDuckDbEventStore,
  duckDbEventStore,
} from '../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { fillFromTemplate } from './support/data-dir-template.ts';
import { createTestDatabase, MIGRATED_TEMPLATE } from './support/postgres.ts';

/**
 * The test servers' stores come from templates (ADR 150): a copied SQLite file and DuckDB file, a PostgreSQL
 * database made from the run's migrated one. Each must be what migrating an empty store gives, or the
 * tests would run against something no server ever opens. Fails when a copy misses a migration, a table or
 * a column.
 */
const dirs: string[] = [];
const newDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-template-test-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: migrations and introspection see any schema.
type AnyDb = Kysely<any>;

/** The migrations recorded as done, and every table's columns. */
async function accountStore(db: AnyDb) {
  const done = await db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
  const tables = await db.introspection.getTables();
  const columns = tables
    .map((table) => `${table.name}(${table.columns.map((column) => `${column.name} ${column.dataType}`)})`)
    .sort();
  return { done: done.map((row) => row.name), columns };
}

async function migratedAndCopied(fresh: AnyDb, copy: AnyDb) {
  await migrateToLatest(fresh);
  // Read before the server would migrate: the copy must need nothing.
  const copied = await accountStore(copy);
  const migrated = await accountStore(fresh);
  await Promise.all([fresh.destroy(), copy.destroy()]);
  return { copied, migrated };
}

describe('the test stores made from templates', () => {
  it('SQLite: the copy holds every migration and table a migrated empty file holds', async () => {
    const fresh = await createDatabase({ databaseUrl: undefined, dataDir: newDir() });
    const copyDir = newDir();
    await fillFromTemplate(copyDir, { accounts: true, events: false });
    const copy = await createDatabase({ databaseUrl: undefined, dataDir: copyDir });
    const { copied, migrated } = await migratedAndCopied(fresh.db, copy.db);
    expect(migrated.done.length).toBeGreaterThan(10);
    expect(copied).toEqual(migrated);
  });

  it('PostgreSQL: a database made from the template holds every migration and table', async () => {
    const adminUrl = inject('postgresAdminUrl');
    const name = () => `pf_${randomBytes(6).toString('hex')}`;
    const fresh = await createDatabase({
      databaseUrl: await createTestDatabase(adminUrl, name()),
      dataDir: '',
    });
    const copyUrl = await createTestDatabase(adminUrl, name(), MIGRATED_TEMPLATE);
    const copy = await createDatabase({ databaseUrl: copyUrl, dataDir: '' });
    const { copied, migrated } = await migratedAndCopied(fresh.db, copy.db);
    expect(migrated.done.length).toBeGreaterThan(10);
    expect(copied).toEqual(migrated);
  });

  it('DuckDB: the copy has the tables, columns and derived-table version a new file gets', async () => {
    const copyDir = newDir();
    await fillFromTemplate(copyDir, { accounts: false, events: true });
    const describeStore = async (dataDir: string) => {
      const store = asDuckDbEventStore(await duckDbEventStore()({ dataDir }));
      const connection = await store.connect();
      try {
        const columns = await connection.runAndReadAll(
          'SELECT table_name, column_name, data_type FROM information_schema.columns ORDER BY ALL',
        );
        const version = await connection.runAndReadAll('SELECT * FROM derived_tables_version');
        return { columns: columns.getRows(), version: version.getRows() };
      } finally {
        connection.closeSync();
        await store.close();
      }
    };
    const made = await describeStore(newDir());
    const copied = await describeStore(copyDir);
    expect(made.columns.length).toBeGreaterThan(50);
    expect(copied).toEqual(made);
  });
});
