import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
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
