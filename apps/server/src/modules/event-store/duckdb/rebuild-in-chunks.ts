import type { DuckDBConnection } from '@duckdb/node-api';
import type { DerivedTable } from './derived-table.ts';

export type RebuildOptions = {
  /** Events per chunk of a table rebuilt in chunks (default REBUILD_CHUNK_EVENTS; tests use tiny ones). */
  chunkEvents?: number;
};

/**
 * Events per chunk of a table rebuilt in chunks (`rebuildChunkKey`): `keyed_sessions` held about 1 KB of
 * lists per event while it aggregated (ADR 113).
 */
export const REBUILD_CHUNK_EVENTS = 500_000;

/**
 * DuckDB's memory limit while a table rebuilt in chunks copies its staged rows sorted, above what DuckDB holds
 * already: with the limit lifted (ADR 028), the sort of 6.34 M rows held 3.8 GB instead of spilling.
 */
export const REBUILD_SORT_MEMORY_MB = 1024;

/**
 * Sets the sort's limit: REBUILD_SORT_MEMORY_MB above what DuckDB holds already, since DuckDB refuses a limit
 * below the memory in use ("Failed to change memory limit"), and the staged rows of the caller's transaction
 * can hold more than REBUILD_SORT_MEMORY_MB on a large store (10 M events). Should it refuse even that (the use
 * grew meanwhile), the sort runs under the caller's limit: false, and nothing to put back.
 */
async function boundSortMemory(connection: DuckDBConnection): Promise<boolean> {
  const usage = await connection.runAndReadAll(
    'SELECT coalesce(sum(memory_usage_bytes), 0)::DOUBLE FROM duckdb_memory()',
  );
  const inUseMb = Math.ceil(Number(usage.getRows()[0]?.[0] ?? 0) / 2 ** 20);
  try {
    await connection.run(`SET GLOBAL memory_limit = '${inUseMb + REBUILD_SORT_MEMORY_MB}MB'`);
    return true;
  } catch (error) {
    if (error instanceof Error && error.message.includes('Failed to change memory limit')) return false;
    throw error;
  }
}

/**
 * Fills `table` (created empty) from `events` one range of its key space at a time, each
 * chunk's rows appended to a staging table, then copies them sorted in one statement (a plain sort, which
 * DuckDB spills) and drops the staging table: the same rows in the same order as one statement, with
 * only one chunk's groups in memory. In the caller's transaction, like the rest of the rebuild.
 */
export async function rebuildInChunks(
  connection: DuckDBConnection,
  table: DerivedTable,
  key: string,
  chunkEvents: number,
): Promise<void> {
  const count = await connection.runAndReadAll('SELECT count(*) FROM events');
  const events = Number(count.getRows()[0]?.[0] ?? 0);
  const chunks = Math.max(1, Math.ceil(events / chunkEvents));
  const staging = `${table.name}_chunks`;
  await connection.run(`DROP TABLE IF EXISTS ${staging}`);
  await connection.run(`CREATE TABLE ${staging} AS SELECT * FROM ${table.name} LIMIT 0`);
  // Ranges of the key, a filter DuckDB applies in the scan: the other columns are read for its rows only.
  const bound = (chunk: number) => ((1n << 64n) * BigInt(chunk)) / BigInt(chunks);
  for (let chunk = 0; chunk < chunks; chunk += 1) {
    const upper = chunk === chunks - 1 ? '' : ` AND ${key} < ${bound(chunk + 1)}::UBIGINT`;
    const source = `(SELECT * FROM events WHERE ${key} >= ${bound(chunk)}::UBIGINT${upper})`;
    await connection.run(`INSERT INTO ${staging} ${table.rows.replaceAll('{source}', source)}`);
  }
  // Under a bounded memory limit, whatever the caller lifted it to: DuckDB then spills the sort. Put
  // back as DuckDB shows it (to a tenth of its unit; the writer sets its own again afterwards).
  const limit = await connection.runAndReadAll("SELECT current_setting('memory_limit')");
  const previous = String(limit.getRows()[0]?.[0]);
  const bounded = await boundSortMemory(connection);
  try {
    await connection.run(`INSERT INTO ${table.name} SELECT * FROM ${staging} ORDER BY ${table.order}`);
  } finally {
    if (bounded) await connection.run(`SET GLOBAL memory_limit = '${previous}'`);
  }
  await connection.run(`DROP TABLE ${staging}`);
}
