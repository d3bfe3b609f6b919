import os from 'node:os';
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import type { EventWriter } from '../event-store.ts';
import { listValue } from './binding.ts';
import {
  type CompactionPolicy,
  type CompactionResult,
  type CompactOptions,
  compactEvents,
} from './compaction.ts';
import {
  CREATE_INCOMING,
  DROP_INCOMING,
  deriveProjectAgain,
  ensureDerivedTables,
  INCOMING_EVENTS,
  inTransaction,
  prepareDerivedTableWriter,
} from './derived-tables.ts';
import {
  addMissingEventColumns,
  CREATE_EVENTS_TABLE,
  EVENT_KEY_VALUES,
  SELECT_EVENT_COLUMN_NAMES,
} from './schema.ts';
import {
  SELECT_ROWS_FROM_SEGMENT,
  SELECT_ROWS_FROM_SEGMENT_BATCHES,
  SELECT_ROWS_FROM_SEGMENT_ROWS,
} from './segment-rows.ts';

/** Drops the later rows of an id the segment holds twice (the first is the one stored). */
const KEEP_FIRST_ROW_OF_EACH_KEY = `DELETE FROM ${INCOMING_EVENTS} WHERE rowid IN (
  SELECT rowid FROM (
    SELECT rowid, row_number() OVER (PARTITION BY project_id, id ORDER BY rowid) AS nth FROM ${INCOMING_EVENTS}
  ) WHERE nth > 1)`;
const COUNT_INCOMING = `SELECT count(*) FROM ${INCOMING_EVENTS}`;
/** Keeps the rows whose key `$keys` lists (`project id` space `id`: a project id holds no space). */
const KEEP_STORED_KEYS = `DELETE FROM ${INCOMING_EVENTS} WHERE project_id || ' ' || id NOT IN (SELECT unnest($keys::VARCHAR[]))`;

/**
 * DuckDB names the kind of error first: a record's content fails with these ("Invalid Input Error:
 * Malformed JSON …", "Conversion Error: Could not convert …", a NOT NULL "Constraint Error"); the
 * store's own troubles are IO, Out of Memory, FATAL or "database has been invalidated" errors.
 */
const RECORD_ERROR = /^(Invalid Input|Conversion|Constraint|Out of Range) Error/;

function isConstraintError(error: unknown): boolean {
  return error instanceof Error && /constraint|duplicate key/i.test(error.message);
}

/**
 * The adapter's write side on one writer connection: segment loads, deletes and compactions run one at
 * a time, in call order (a compaction holds the loader back while it rewrites the table, ADR 004).
 */
export type LoadStepTiming = { wallMs: number; cpuUs: number };

export type EventWriterOptions = {
  compaction: CompactionPolicy;
  /** Adds up each step of every load here: wall ms and this process's CPU µs (the loader bench). */
  loadTimings?: Map<string, LoadStepTiming>;
  /** The instance's memory limit in MB, if the store set one: compaction lifts it while it runs. */
  memoryLimitMb?: number;
};

/**
 * DuckDB's own default memory limit, 80 % of RAM, in MB. Set as a number: `RESET GLOBAL memory_limit`
 * shows the default in `current_setting` but leaves the buffer pool at the limit the instance was opened
 * with (measured: a rebuild still failed at 976.5 MiB of a 1,024 MB limit after it).
 */
const DUCKDB_DEFAULT_LIMIT_MB = Math.floor((os.totalmem() * 0.8) / 1e6);

/** Lifts the instance's memory limit to DuckDB's default (when the store has one of its own). */
async function liftMemoryLimit(connection: DuckDBConnection, limitMb: number | undefined) {
  if (limitMb) await connection.run(`SET GLOBAL memory_limit = '${DUCKDB_DEFAULT_LIMIT_MB}MB'`);
}

/**
 * Puts the store's memory limit back. Should DuckDB refuse (more pinned than the limit), the next write
 * that lifts it puts it back again.
 */
async function restoreMemoryLimit(connection: DuckDBConnection, limitMb: number | undefined) {
  if (limitMb) await connection.run(`SET GLOBAL memory_limit = '${limitMb}MB'`).catch(() => undefined);
}

/**
 * Runs `work` under DuckDB's default memory limit and puts the store's back afterwards. For the writes
 * that aggregate a whole table or a whole project into structures DuckDB cannot evict or spill (a
 * primary-key index, list aggregates): under a limit of 1 GB, rebuilding the derived tables of 10 M
 * events failed with "could not allocate block", as compaction did.
 */
async function withoutMemoryLimit<T>(
  connection: DuckDBConnection,
  limitMb: number | undefined,
  work: () => Promise<T>,
): Promise<T> {
  await liftMemoryLimit(connection, limitMb);
  try {
    return await work();
  } finally {
    await restoreMemoryLimit(connection, limitMb);
  }
}

export async function createEventWriter(instance: DuckDBInstance, options: EventWriterOptions) {
  const writer = await instance.connect();
  await writer.run(CREATE_EVENTS_TABLE);
  // A file from before a column was added to event-row.ts gets it here (older rows hold null).
  const existing = (await writer.runAndReadAll(SELECT_EVENT_COLUMN_NAMES))
    .getRows()
    .map((row) => String(row[0]));
  for (const statement of addMissingEventColumns(existing)) await writer.run(statement);
  // A file from before the derived tables (or an older version of them) gets them built here, once.
  await withoutMemoryLimit(writer, options.memoryLimitMb, () => ensureDerivedTables(writer));
  let isClosed = false;
  let writes: Promise<unknown> = Promise.resolve();
  function serialWrite<T>(task: () => Promise<T>): Promise<T> {
    const run = writes.then(() => {
      if (isClosed) throw new Error('event store is closed');
      return task();
    });
    writes = run.catch(() => undefined);
    return run;
  }
  let compacting: DuckDBConnection | undefined;

  // Each load runs in one transaction: its rows are parsed once into the temporary `incoming_events`,
  // inserted into `events` and applied to the derived tables (ADR 005). Atomic, durable in the WAL when
  // it commits, and rolled back whole on a key conflict. Prepared once: the statement texts are long.
  const derived = await prepareDerivedTableWriter(writer);
  // Statements that read `incoming_events` are planned on each run, never prepared (derived-tables.ts).
  // BY NAME: an older file's `events` has the columns added since at its end (schema.ts). The session's
  // and the user's keys are computed here (ADR 093).
  const insertAll = `INSERT INTO events BY NAME SELECT *, ${EVENT_KEY_VALUES} FROM ${INCOMING_EVENTS}`;
  // The safe path's insert answers the keys it stored: an id already stored, or met earlier in the segment,
  // is no new event, so its row must not reach the derived tables either.
  const insertNew = `INSERT INTO events BY NAME SELECT *, ${EVENT_KEY_VALUES} FROM ${INCOMING_EVENTS} ON CONFLICT DO NOTHING RETURNING project_id, id`;
  // Two ways to read a segment. The fast one reads every line as a rows record, all that ingestion
  // writes (ADR 021): a batch record (a log from before) then has no project id and the insert fails on
  // its NOT NULL column. The safe one reads both kinds, each line once as what it is.
  const fast = [await writer.prepare(`INSERT INTO ${INCOMING_EVENTS} ${SELECT_ROWS_FROM_SEGMENT}`)];
  const safe = [
    await writer.prepare(`INSERT INTO ${INCOMING_EVENTS} ${SELECT_ROWS_FROM_SEGMENT_ROWS}`),
    await writer.prepare(`INSERT INTO ${INCOMING_EVENTS} ${SELECT_ROWS_FROM_SEGMENT_BATCHES}`),
  ];

  const timings = options.loadTimings;
  async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
    if (!timings) return work();
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
      return await work();
    } finally {
      const { user, system } = process.cpuUsage(cpu);
      const sum = timings.get(step) ?? { wallMs: 0, cpuUs: 0 };
      timings.set(step, {
        wallMs: sum.wallMs + performance.now() - started,
        cpuUs: sum.cpuUs + user + system,
      });
    }
  }

  /**
   * The safe path's insert: the segment's first row of each key that no stored event holds goes into
   * `events`, and `incoming_events` keeps only those rows. An id sent again with other content (a client
   * that reuses ids, an old event's id with a new time) is not stored, so it changes no figure (ADR 167).
   */
  async function insertNewEvents(): Promise<void> {
    await writer.run(KEEP_FIRST_ROW_OF_EACH_KEY);
    const incoming = Number((await writer.runAndReadAll(COUNT_INCOMING)).getRows()[0]?.[0] ?? 0);
    const stored = (await writer.runAndReadAll(insertNew))
      .getRows()
      .map(([project, id]) => `${project} ${id}`);
    if (stored.length === incoming) return;
    if (stored.length === 0) {
      await writer.run(`DELETE FROM ${INCOMING_EVENTS}`);
      return;
    }
    await writer.run(KEEP_STORED_KEYS, { keys: listValue(stored) });
  }

  async function load(file: string, fills: typeof fast, insert: string): Promise<void> {
    // On one DuckDB thread: under heavy ingestion a load would otherwise take both cores from the
    // request path (p99 and throughput both suffer), and one thread does the same work for less CPU
    // (`npm run bench:ingest`: 676 µs of server CPU per request instead of 839). The setting is the
    // instance's, so a dashboard question asked meanwhile gets one thread too.
    await writer.run('SET threads = 1');
    try {
      await inTransaction(writer, async () => {
        await timed('read the segment', async () => {
          await writer.run(CREATE_INCOMING);
          for (const statement of fills) {
            statement.bind([file]);
            await statement.run();
          }
        });
        await timed('insert into events', async () => {
          if (insert === insertNew) await insertNewEvents();
          else await writer.run(insert);
        });
        // The derived tables take every incoming row: each one is now a stored event, stored by this load.
        await derived.apply(timed);
        await writer.run(DROP_INCOMING);
      });
    } finally {
      await writer.run('RESET threads');
    }
  }

  /**
   * Deletes the rows of the project `where` selects, then derives its tables again (not when none was
   * deleted: an hourly retention pass that finds nothing old costs one scan). Answers the count.
   */
  function deleteEvents(where: string, params: Record<string, DuckDBValue>, projectId: string) {
    return serialWrite(() =>
      inTransaction(writer, async () => {
        const deleted = (await writer.run(`DELETE FROM events WHERE ${where}`, params)).rowsChanged;
        if (deleted === 0) return 0;
        // Sets, minima and firsts cannot be taken back event by event: recomputed from what is left.
        await withoutMemoryLimit(writer, options.memoryLimitMb, () => deriveProjectAgain(writer, projectId));
        return deleted;
      }),
    );
  }

  const eventWriter: EventWriter & {
    compact(options?: CompactOptions): Promise<CompactionResult>;
    close(): Promise<void>;
  } = {
    loadSegment(file) {
      return serialWrite(async () => {
        // Fast path: rows records only, and a plain INSERT, which checks the primary key far faster than
        // ON CONFLICT does. Reloads after a crash and logs from before ADR 021 are rare, so a constraint
        // error (the whole transaction undone) just takes the safe path; a record that fails there too
        // is a record error (quarantined).
        try {
          await load(file, fast, insertAll);
          return;
        } catch (error) {
          if (!isConstraintError(error)) throw error;
        }
        await load(file, safe, insertNew);
      });
    },

    isRecordError: (error) => error instanceof Error && RECORD_ERROR.test(error.message),

    async deleteProjectEvents(projectId) {
      await deleteEvents('project_id = $project', { project: projectId }, projectId);
    },

    deleteEventsBefore: (projectId, before) =>
      deleteEvents(
        'project_id = $project AND ts < make_timestamp($before::BIGINT * 1000)',
        { project: projectId, before: BigInt(before.getTime()) },
        projectId,
      ),

    deleteWalletEvents: (projectId, wallet) =>
      deleteEvents(
        'project_id = $project AND (wallet_address = $wallet OR tx_from = $wallet)',
        { project: projectId, wallet: wallet.toLowerCase() },
        projectId,
      ),

    deleteUserEvents: (projectId, userId) =>
      deleteEvents(
        'project_id = $project AND user_id = $user',
        { project: projectId, user: userId },
        projectId,
      ),

    compact(compactOptions = {}) {
      return serialWrite(async () => {
        // Its own connection, so that close() can interrupt it without touching the writer.
        const connection = await instance.connect();
        compacting = connection;
        const limit = options.memoryLimitMb;
        try {
          const result = await compactEvents(connection, options.compaction, {
            ...compactOptions,
            // The new table's primary key is a new ART index, which DuckDB must build in memory whole
            // (~75 MB per million events): under a limit of 1 GB, 10 M events failed with "could not
            // allocate block". DuckDB's own limit (80 % of RAM) holds while the table is rewritten.
            onStart: async (facts) => {
              await liftMemoryLimit(connection, limit);
              await compactOptions.onStart?.(facts);
            },
          });
          // Writes the new table into the file and frees the old one's blocks now, not at some later
          // automatic checkpoint. Skipped by DuckDB while readers hold older snapshots: harmless.
          if (result.compacted) await connection.run('CHECKPOINT').catch(() => undefined);
          return result;
        } finally {
          // Once checkpointed, the index's blocks can be evicted like any other: the limit holds again.
          // Should DuckDB refuse (more pinned than the limit), the next compaction puts it back.
          await restoreMemoryLimit(connection, limit);
          compacting = undefined;
          connection.closeSync();
        }
      });
    },

    async close() {
      if (isClosed) return;
      // A compaction under way is rolled back rather than waited for (it may take a minute).
      compacting?.interrupt();
      const last = writes;
      isClosed = true;
      await last;
      for (const statement of [...fast, ...safe]) statement.destroySync();
      writer.closeSync();
    },
  };
  return eventWriter;
}
