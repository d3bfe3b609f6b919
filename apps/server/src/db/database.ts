import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import SQLite from 'libsql';
import type { Database } from './schema.ts';

export type AccountDb = Kysely<Database>;
export type DbEngine = 'sqlite' | 'postgres';

/**
 * The account store: PostgreSQL when DATABASE_URL is set, else a SQLite file in DATA_DIR.
 * `pg` is loaded only when used: start-up time matters (DESIGN.md budget) and most installs are SQLite.
 */
export async function createDatabase(options: { databaseUrl: string | undefined; dataDir: string }): Promise<{
  db: AccountDb;
  engine: DbEngine;
}> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), engine: 'postgres' };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(options.dataDir, 'polyflow.sqlite'));
  // WAL lets readers run during a write; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), engine: 'sqlite' };
}

/** A unique-constraint violation on either engine (duplicate email, domain or API key). */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * `fn` in one transaction on one connection (what `db.transaction()` does), except that the error thrown
 * is the one that happened: SQLite ends a transaction by itself on some errors (SQLITE_FULL on a full disk,
 * in a statement or at COMMIT), and Kysely's rollback after that fails with "no transaction is active",
 * hiding the cause (a 500 instead of 503 STORAGE_FULL).
 */
export async function inTransaction<T>(db: AccountDb, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`begin`.execute(connection);
    try {
      const result = await fn(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      // Already rolled back by SQLite in that case; either way the cause is what the caller needs.
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
  });
}
