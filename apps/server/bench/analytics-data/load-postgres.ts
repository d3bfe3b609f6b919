import { chmodSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type pg from 'pg';
import { type ColumnKind, EVENT_COLUMNS } from '../../src/modules/event-store/event-row.ts';

const PG_TYPES: Record<ColumnKind, string> = {
  varchar: 'text',
  timestamp: 'timestamp',
  bigint: 'bigint',
  hugeint: 'numeric(39, 0)',
};

/**
 * The same rows in PostgreSQL: DuckDB writes a CSV, the server COPYs it (server-side, so the file is
 * made readable by the cluster's OS user). Then the indexes a PostgreSQL deployment of this table would
 * have: (project_id, ts) for every ranged query and (project_id, type, ts) for the per-type ones.
 */
export async function loadPostgres(duck: DuckDBConnection, pool: pg.Pool, dir: string): Promise<void> {
  const file = path.join(dir, 'events.csv');
  await duck.run(`COPY events TO '${file}' (FORMAT csv, HEADER false)`);
  chmodSync(dir, 0o755);
  chmodSync(file, 0o644);
  const columns = EVENT_COLUMNS.map(({ name, kind }) => `${name} ${PG_TYPES[kind]}`).join(', ');
  await pool.query(`CREATE UNLOGGED TABLE events (${columns})`);
  await pool.query(`COPY events FROM '${file}' WITH (FORMAT csv)`);
  await pool.query('CREATE INDEX events_project_ts ON events (project_id, ts)');
  await pool.query('CREATE INDEX events_project_type_ts ON events (project_id, type, ts)');
  await pool.query('VACUUM ANALYZE events');
}
