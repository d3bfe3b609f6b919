import type { DuckDBConnection } from '@duckdb/node-api';
import { clusterDerivedTables } from './derived-tables.ts';
import { CREATE_EVENTS_TABLE } from './schema.ts';

/** When a compaction is worth its cost. See docs/decisions/004-event-table-clustering.md. */
export type CompactionPolicy = {
  /** Tables smaller than this are never rewritten: a full scan of them is already fast. */
  minTableRows: number;
  /** Rewrite once the rows added since the last compaction reach this share of the table… */
  newRowsFraction: number;
  /** …or this many rows, whichever comes first: it bounds the unclustered tail every query scans. */
  newRowsLimit: number;
};

export const DEFAULT_COMPACTION_POLICY: CompactionPolicy = {
  minTableRows: 200_000,
  newRowsFraction: 0.2,
  newRowsLimit: 1_000_000,
};

export type CompactionResult =
  | { compacted: false; rows: number; newRows: number }
  | { compacted: true; rows: number; newRows: number; durationMs: number };

export type CompactOptions = {
  /** Rewrite even if the policy says it is not due. */
  force?: boolean;
  /** Called once a rewrite starts (not when none is due). */
  onStart?(facts: { rows: number; newRows: number }): void | Promise<void>;
};

/** One row: how many rows the table held right after the last compaction. */
export const CREATE_COMPACTION_TABLE = `CREATE TABLE IF NOT EXISTS events_compaction (
  compacted_rows BIGINT NOT NULL,
  compacted_at TIMESTAMP NOT NULL
)`;

async function scalar(connection: DuckDBConnection, sql: string): Promise<number> {
  const rows = (await connection.runAndReadAll(sql)).getRows();
  return Number(rows[0]?.[0] ?? 0);
}

export function isCompactionDue(rows: number, newRows: number, policy: CompactionPolicy): boolean {
  if (rows < policy.minTableRows || newRows <= 0) return false;
  return newRows >= policy.newRowsFraction * rows || newRows >= policy.newRowsLimit;
}

/**
 * Rewrites `events` ordered by (project_id, ts) in one transaction, so that each project's rows fill
 * few row groups and the zone maps of `project_id` skip all the others. The caller must keep every
 * other writer of `events` out while it runs; readers keep reading the old table (DuckDB's MVCC
 * covers the catalog too) until the commit, and their prepared statements rebind to the new one.
 */
export async function compactEvents(
  connection: DuckDBConnection,
  policy: CompactionPolicy,
  options: CompactOptions = {},
): Promise<CompactionResult> {
  await connection.run(CREATE_COMPACTION_TABLE);
  const rows = await scalar(connection, 'SELECT count(*) FROM events');
  const compactedRows = await scalar(
    connection,
    'SELECT coalesce(max(compacted_rows), 0) FROM events_compaction',
  );
  const newRows = rows - compactedRows;
  if (!options.force && !isCompactionDue(rows, newRows, policy)) return { compacted: false, rows, newRows };

  await options.onStart?.({ rows, newRows });
  const started = performance.now();
  await connection.run('BEGIN TRANSACTION');
  try {
    await connection.run('DROP TABLE IF EXISTS events_next');
    // The very same DDL as the store's, primary key included, under the new name.
    await connection.run(
      CREATE_EVENTS_TABLE.replace('CREATE TABLE IF NOT EXISTS events (', 'CREATE TABLE events_next ('),
    );
    await connection.run('INSERT INTO events_next BY NAME SELECT * FROM events ORDER BY project_id, ts');
    await connection.run('DROP TABLE events');
    await connection.run('ALTER TABLE events_next RENAME TO events');
    // Their contents do not depend on the order of `events`; only their own order is restored.
    await clusterDerivedTables(connection);
    await connection.run('DELETE FROM events_compaction');
    await connection.run(`INSERT INTO events_compaction VALUES (${rows}, now()::TIMESTAMP)`);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return { compacted: true, rows, newRows, durationMs: performance.now() - started };
}
