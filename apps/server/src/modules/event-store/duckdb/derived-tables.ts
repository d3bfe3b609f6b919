import type { DuckDBConnection } from '@duckdb/node-api';
import { EVENT_COLUMNS } from '../event-row.ts';
import { CUSTOM_EVENTS } from './custom-events.ts';
import type { DerivedTable } from './derived-table.ts';
import { INCIDENT_MEMBERS } from './incident-members.ts';
import { INCIDENT_OCCURRENCES } from './incident-occurrences.ts';
import { INCIDENT_SPANS } from './incident-spans.ts';
import { KEYED_SESSIONS } from './keyed-sessions.ts';
import { KEYED_USER_LIVES } from './keyed-user-lives.ts';
import { REBUILD_CHUNK_EVENTS, type RebuildOptions, rebuildInChunks } from './rebuild-in-chunks.ts';
import { CREATE_DERIVED_TABLES, DERIVED_TABLES_VERSION } from './schema.ts';
import { SESSIONS } from './sessions.ts';
import { TRANSACTION_FAILURES } from './transaction-failures.ts';
import { TRANSACTION_SUMMARIES } from './transaction-summaries.ts';
import { USER_DAYS } from './user-days.ts';
import { USER_QUARTERS } from './user-quarters.ts';
import { WALLET_ACTIVE_DAYS } from './wallet-active-days.ts';
import { WALLET_FIRST_TOUCHES } from './wallet-first-touches.ts';
import { WALLET_QUARTERS } from './wallet-quarters.ts';
import { WALLET_SESSIONS } from './wallet-sessions.ts';

/**
 * Keeps the derived tables of schema.ts in step with `events` (docs/decisions/005-derived-tables.md).
 * Every statement reads a relation `{source}` with the events' columns: the rows of one insert (the
 * temporary `incoming_events`) or the whole `events` table (a rebuild). Each one only adds members to
 * sets or moves minima and maxima, so applying an event twice, or out of order, gives the same rows.
 */

/** The derived tables, one file each, in the order a load applies them (incident_members after the two it joins). */
const DERIVED_TABLES: readonly DerivedTable[] = [
  WALLET_FIRST_TOUCHES,
  USER_DAYS,
  KEYED_USER_LIVES,
  WALLET_ACTIVE_DAYS,
  WALLET_QUARTERS,
  USER_QUARTERS,
  SESSIONS,
  INCIDENT_OCCURRENCES,
  TRANSACTION_FAILURES,
  TRANSACTION_SUMMARIES,
  INCIDENT_SPANS,
  INCIDENT_MEMBERS,
  CUSTOM_EVENTS,
  WALLET_SESSIONS,
  KEYED_SESSIONS,
];

export const DERIVED_TABLE_NAMES: readonly string[] = DERIVED_TABLES.map((table) => table.name);

/**
 * The names tables had before a version renamed them, dropped when a file older than that version opens
 * (its tables of the new names are rebuilt). Version 10 renamed the tables whose shape differs from the
 * ClickHouse table of the same name (docs/decisions/090-one-name-one-shape.md).
 */
export const RETIRED_TABLE_NAMES: readonly { name: string; before: number }[] = [
  { name: 'wallet_firsts', before: 10 },
  { name: 'user_lives', before: 10 },
  { name: 'wallet_days', before: 10 },
  { name: 'incident_lives', before: 10 },
];

/**
 * The rows of one insert, as a relation the upserts read: the store fills it (from rows records or SDK
 * batch records), inserts it into `events` and applies it here, in one transaction.
 */
export const INCOMING_EVENTS = 'incoming_events';
/**
 * Each load creates `incoming_events` afresh and drops it before it commits. Emptied with DELETE instead,
 * a temporary table keeps every row group it ever held (DuckDB reclaims deleted rows only when a table
 * is checkpointed, which temporary tables never are): the writer's memory grew by each load's rows, and
 * every scan of the table by the upserts walked all of them.
 */
// In event-row's column order (what the segment's SELECT gives), whatever order `events` has: a file from
// before a column was added has it last (schema.ts, addMissingEventColumns); `events` is filled BY NAME.
export const CREATE_INCOMING = `CREATE OR REPLACE TEMP TABLE ${INCOMING_EVENTS} AS SELECT ${EVENT_COLUMNS.map(({ name }) => name).join(', ')} FROM events LIMIT 0`;
export const DROP_INCOMING = `DROP TABLE IF EXISTS ${INCOMING_EVENTS}`;

type Upsert = {
  table: string;
  step: string;
  sql: string;
  /** `staged`: fills the table's staged rows; `new rows`: inserts those of new keys, and when that is all of them the table's later statements are skipped. */
  role?: 'staged' | 'new rows';
};

/**
 * The statements of a load for one table: its rows of `source` merged into it. A table that inserts its
 * new rows first (`sessions`) gets its rows computed once, into a temporary table both statements read:
 * the aggregation is what costs.
 */
function upsertsFrom(table: DerivedTable, source: string): Upsert[] {
  const rows = table.rows.replaceAll('{source}', source);
  const [onConflict] = table.onConflict;
  if (!table.newRowsFirst) {
    return [{ table: table.name, step: table.name, sql: `INSERT INTO ${table.name} ${rows} ${onConflict}` }];
  }
  const staged = `incoming_${table.name}`;
  return [
    {
      table: table.name,
      step: `${table.name}: aggregate`,
      sql: `CREATE OR REPLACE TEMP TABLE ${staged} AS ${rows}`,
      role: 'staged',
    },
    {
      table: table.name,
      step: `${table.name}: new rows`,
      sql: `INSERT INTO ${table.name} SELECT * FROM ${staged} ON CONFLICT DO NOTHING`,
      role: 'new rows',
    },
    {
      table: table.name,
      step: `${table.name}: merge`,
      sql: `INSERT INTO ${table.name} SELECT * FROM ${staged} ${onConflict}`,
    },
  ];
}

/** The CREATE TABLE statement of a derived table (schema.ts). */
function ddlOf(name: string): string {
  const ddl = CREATE_DERIVED_TABLES.find((text) => text.includes(`EXISTS ${name} (`));
  if (!ddl) throw new Error(`no DDL for ${name}`);
  return ddl;
}

/** Creates the derived tables a file lacks. */
export async function createDerivedTables(connection: DuckDBConnection): Promise<void> {
  for (const ddl of CREATE_DERIVED_TABLES) await connection.run(ddl);
}

/**
 * Empties the derived tables (all, or those named) and fills them again from `events`, in the caller's
 * transaction: how a file written before they existed (or before their definition changed) gets them,
 * and how the analytics bench builds them after generating its events.
 */
export async function rebuildDerivedTables(
  connection: DuckDBConnection,
  names: readonly string[] = DERIVED_TABLE_NAMES,
  options: RebuildOptions = {},
): Promise<void> {
  for (const table of DERIVED_TABLES.filter(({ name }) => names.includes(name))) {
    // Dropped and created again rather than emptied: an older version may have other columns, and
    // deleting millions of indexed rows is slower than writing them. Filled already clustered.
    await connection.run(`DROP TABLE IF EXISTS ${table.name}`);
    await connection.run(ddlOf(table.name));
    if (table.rebuildChunkKey) {
      await rebuildInChunks(
        connection,
        table,
        table.rebuildChunkKey,
        options.chunkEvents ?? REBUILD_CHUNK_EVENTS,
      );
      continue;
    }
    await connection.run(
      `INSERT INTO ${table.name} SELECT * FROM (${table.rows.replaceAll('{source}', 'events')}) ORDER BY ${table.order}`,
    );
  }
  await connection.run('DELETE FROM derived_tables_version');
  await connection.run(`INSERT INTO derived_tables_version VALUES (${DERIVED_TABLES_VERSION})`);
}

/**
 * The tables a file of derived-table version `version` must rebuild: those defined after it, or all of
 * them when it has none (a file from before the derived tables, or one whose version was lost).
 */
export function outdatedDerivedTables(version: number | null): string[] {
  return DERIVED_TABLES.filter((table) => version === null || table.definedIn > version).map(
    (table) => table.name,
  );
}

/**
 * On start-up: creates the derived tables, drops those of retired names and rebuilds those missing or
 * outdated (a version change
 * rebuilds only the tables it changed: for 10 M events, `keyed_user_lives` of version 5 takes seconds, all of
 * them minutes). Answers the tables it rebuilt.
 */
export async function ensureDerivedTables(connection: DuckDBConnection): Promise<string[]> {
  await createDerivedTables(connection);
  const reader = await connection.runAndReadAll('SELECT max(version) AS version FROM derived_tables_version');
  const version = reader.getRowObjectsJS()[0]?.version;
  if (version === DERIVED_TABLES_VERSION) return [];
  const stored = version == null ? null : Number(version);
  const outdated = outdatedDerivedTables(stored);
  await inTransaction(connection, async () => {
    for (const { name, before } of RETIRED_TABLE_NAMES) {
      if (stored === null || stored < before) await connection.run(`DROP TABLE IF EXISTS ${name}`);
    }
    await rebuildDerivedTables(connection, outdated);
  });
  return outdated;
}

/** Runs `work` in one transaction on `connection`: all of it or none of it. */
export async function inTransaction<T>(connection: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await connection.run('BEGIN TRANSACTION');
  try {
    const result = await work();
    await connection.run('COMMIT');
    return result;
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

export type DerivedTableWriter = {
  /**
   * Applies the rows in `incoming_events` to every derived table; call it in the insert's transaction.
   * `timed` measures each table's upserts (the loader bench's breakdown).
   */
  apply(timed?: <T>(step: string, work: () => Promise<T>) => Promise<T>): Promise<void>;
};

/**
 * The upserts for the store's writer connection. Not prepared: a statement planned while
 * `incoming_events` was empty keeps that plan's statistics, and DuckDB then packs the grouping keys
 * (project, wallet, session ids) into too narrow integers and stores garbage. Planning each time costs
 * about a millisecond per insert.
 */
export async function prepareDerivedTableWriter(connection: DuckDBConnection): Promise<DerivedTableWriter> {
  await connection.run(CREATE_INCOMING);
  const upserts = DERIVED_TABLES.flatMap((table) => upsertsFrom(table, INCOMING_EVENTS));
  const staged = DERIVED_TABLES.filter((table) => table.newRowsFirst).map(
    (table) => `incoming_${table.name}`,
  );
  return {
    async apply(timed = (_step, work) => work()) {
      let stagedRows = 0;
      let isDone: string | undefined;
      for (const { table, step, sql, role } of upserts) {
        if (table === isDone) continue;
        if (role === 'staged') {
          await timed(step, () => connection.run(sql));
          const count = await connection.runAndReadAll(`SELECT count(*) FROM incoming_${table}`);
          stagedRows = Number(count.getRows()[0]?.[0] ?? 0);
          continue;
        }
        const { rowsChanged } = await timed(step, () => connection.run(sql));
        if (role === 'new rows' && rowsChanged === stagedRows) isDone = table;
      }
      // Not kept until the next load (see CREATE_INCOMING).
      for (const name of staged) await connection.run(`DROP TABLE IF EXISTS ${name}`);
    },
  };
}

/** Removes a project's rows from every derived table (with its events, in the caller's transaction). */
export async function deleteDerivedRows(connection: DuckDBConnection, projectId: string): Promise<void> {
  for (const name of DERIVED_TABLE_NAMES) {
    await connection.run(`DELETE FROM ${name} WHERE project_id = $project`, { project: projectId });
  }
}

/**
 * Derives a project's rows of every table again from its events, in the caller's transaction: after
 * events were deleted, since sets, minima and firsts cannot be taken back one event at a time.
 */
export async function deriveProjectAgain(connection: DuckDBConnection, projectId: string): Promise<void> {
  await deleteDerivedRows(connection, projectId);
  const source = '(SELECT * FROM events WHERE project_id = $project)';
  for (const table of DERIVED_TABLES) {
    await connection.run(`INSERT INTO ${table.name} ${table.rows.replaceAll('{source}', source)}`, {
      project: projectId,
    });
  }
}

/**
 * Rewrites every derived table clustered by project (and time), like compaction does for `events`, so
 * that a query's zone maps skip the other projects' rows. Runs in the compaction's transaction.
 */
export async function clusterDerivedTables(connection: DuckDBConnection): Promise<void> {
  for (const table of DERIVED_TABLES) {
    await connection.run(`DROP TABLE IF EXISTS ${table.name}_next`);
    await connection.run(ddlOf(table.name).replace(`IF NOT EXISTS ${table.name} (`, `${table.name}_next (`));
    await connection.run(
      `INSERT INTO ${table.name}_next SELECT * FROM ${table.name} ORDER BY ${table.order}`,
    );
    await connection.run(`DROP TABLE ${table.name}`);
    await connection.run(`ALTER TABLE ${table.name}_next RENAME TO ${table.name}`);
  }
}
