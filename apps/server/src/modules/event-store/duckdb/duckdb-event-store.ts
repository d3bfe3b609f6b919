import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { withIncidentId } from '../../incidents/incident-column.ts';
import type { EventStore } from '../event-store.ts';
import { SELECT_ROWS_FROM_LOG_FILE_BATCHES } from './segment-rows.ts';
import {
  type CompactionPolicy,
  type CompactionResult,
  type CompactOptions,
  compactEvents,
  DEFAULT_COMPACTION_POLICY,
} from './compaction.ts';
import {
  deleteDerivedRows,
  ensureDerivedTables,
  INCOMING_EVENTS,
  inTransaction,
  prepareDerivedTableWriter,
} from './derived-tables.ts';
import { findTxEvent } from './questions/find-tx-event.ts';
import { integrationSummary } from './questions/integration-summary.ts';
import { rowsToJson, SELECT_ROWS_FROM_JSON, SELECT_ROWS_FROM_LOG_FILE } from '../log-records.ts';
import { CREATE_EVENTS_TABLE } from './schema.ts';

export type DuckDbStoreOptions = {
  /** `DATA_DIR/events.duckdb`, or ':memory:' in unit tests. */
  file: string;
  /**
   * WAL size that triggers an automatic checkpoint. A checkpoint stalls the writer, so it is kept well
   * above DuckDB's 16 MB default (fewer, larger stalls); the WAL is replayed on start after a crash.
   */
  checkpointThreshold?: string;
  /** When `compact()` rewrites the table clustered by (project_id, ts) (ADR 004). */
  compaction?: Partial<CompactionPolicy>;
};

export type DuckDbEventStore = EventStore & {
  /** For analytics queries: a connection of the same instance (reads see every committed batch). */
  connect(): Promise<DuckDBConnection>;
  /**
   * Rewrites the table ordered by (project_id, ts) if enough rows arrived since the last time (or
   * always with `force`). Inserts wait while it runs, so the ingestion loader pauses; readers don't.
   */
  compact(options?: CompactOptions): Promise<CompactionResult>;
  /** Deletes every event of a project, and its rows of the derived tables, in one transaction. */
  deleteProjectEvents(projectId: string): Promise<void>;
};

function isConstraintError(error: unknown): boolean {
  return error instanceof Error && /constraint|duplicate key/i.test(error.message);
}

/** The events table in a DuckDB file. One writer connection; reads use their own connection. */
export async function createDuckDbEventStore(options: DuckDbStoreOptions): Promise<DuckDbEventStore> {
  if (options.file !== ':memory:') mkdirSync(path.dirname(options.file), { recursive: true });
  const instance = await DuckDBInstance.create(options.file, {
    checkpoint_threshold: options.checkpointThreshold ?? '128MB',
  });
  const writer = await instance.connect();
  await writer.run(CREATE_EVENTS_TABLE);
  // A file from before the derived tables (or an older version of them) gets them built here, once.
  await ensureDerivedTables(writer);
  const reader = await instance.connect();
  let isClosed = false;
  const policy = { ...DEFAULT_COMPACTION_POLICY, ...options.compaction };
  // Writes to `events` (inserts, compaction) run one at a time, in call order.
  let writes: Promise<unknown> = Promise.resolve();
  function serialWrite<T>(task: () => Promise<T>): Promise<T> {
    const run = writes.then(task);
    writes = run.catch(() => undefined);
    return run;
  }
  let compacting: DuckDBConnection | undefined;

  // Each load runs in one transaction: its rows are parsed once into the temporary `incoming_events`,
  // inserted into `events` and applied to the derived tables (ADR 005). Atomic, durable in the WAL when
  // it commits, and rolled back whole on a key conflict. Prepared once: the statement texts are long.
  const derived = await prepareDerivedTableWriter(writer);
  // Statements that read `incoming_events` are planned on each run, never prepared (derived-tables.ts).
  const insertAll = `INSERT INTO events SELECT * FROM ${INCOMING_EVENTS}`;
  const insertNew = `INSERT INTO events SELECT * FROM ${INCOMING_EVENTS} ON CONFLICT DO NOTHING RETURNING project_id, id`;
  const fillFromRows = await writer.prepare(`INSERT INTO ${INCOMING_EVENTS} ${SELECT_ROWS_FROM_JSON}`);
  const fillFromSegment = [
    await writer.prepare(`INSERT INTO ${INCOMING_EVENTS} ${SELECT_ROWS_FROM_LOG_FILE}`),
    await writer.prepare(`INSERT INTO ${INCOMING_EVENTS} ${SELECT_ROWS_FROM_LOG_FILE_BATCHES}`),
  ];

  /** Fills `incoming_events` with the rows of a JSON array, or with every record of a log segment file. */
  type Source = { json: string } | { segment: string };
  async function fill(source: Source): Promise<void> {
    if ('json' in source) {
      fillFromRows.bind([source.json]);
      await fillFromRows.run();
      return;
    }
    for (const statement of fillFromSegment) {
      statement.bind([source.segment]);
      await statement.run();
    }
  }

  /** 'all' when every row was new, else the keys of the rows that were. */
  function insertRows(source: Source): Promise<'all' | Set<string>> {
    return serialWrite(() => insertRowsNow(source));
  }
  async function insertRowsNow(source: Source): Promise<'all' | Set<string>> {
    if (isClosed) throw new Error('event store is closed');
    const load = async <T>(insert: () => Promise<T>) => {
      // On one DuckDB thread: under heavy ingestion a load would otherwise take both cores from the
      // request path (p99 and throughput both suffer), and one thread does the same work for less CPU
      // (`npm run bench:ingest`: 676 µs of server CPU per request instead of 839). The setting is the
      // instance's, so a dashboard query running meanwhile gets one thread too.
      await writer.run('SET threads = 1');
      try {
        return await inTransaction(writer, async () => {
          await writer.run(`DELETE FROM ${INCOMING_EVENTS}`);
          await fill(source);
          const result = await insert();
          // The derived tables take every incoming row: re-applying a stored event changes none of them.
          await derived.apply();
          return result;
        });
      } finally {
        await writer.run('RESET threads');
      }
    };
    // Fast path: a plain INSERT checks the primary key far faster than ON CONFLICT does; retries
    // are rare, so a conflict (the whole transaction undone) just takes the slow path.
    // Both run on DuckDB's threads, off the JS thread.
    try {
      await load(() => writer.run(insertAll));
      return 'all';
    } catch (error) {
      if (!isConstraintError(error)) throw error;
    }
    return load(async () => {
      const result = await writer.runAndReadAll(insertNew);
      return new Set(result.getRows().map(([projectId, id]) => `${projectId}\n${id}`));
    });
  }

  return {
    async insertBatch(rows) {
      if (rows.length === 0) return [];
      const inserted = await insertRows({ json: rowsToJson(rows.map(withIncidentId)) });
      if (inserted === 'all') return rows.map(() => true);
      return rows.map((row) => inserted.has(`${row.project_id}\n${row.id}`));
    },

    async insertLogSegment(file) {
      await insertRows({ segment: file });
    },

    integrationSummary: (projectId, since) => integrationSummary(reader, projectId, since),
    findTxEvent: (projectId, id) => findTxEvent(reader, projectId, id),
    connect: () => instance.connect(),

    compact(compactOptions = {}) {
      return serialWrite(async () => {
        if (isClosed) throw new Error('event store is closed');
        // Its own connection, so that close() can interrupt it without touching the writer.
        const connection = await instance.connect();
        compacting = connection;
        try {
          const result = await compactEvents(connection, policy, compactOptions);
          // Writes the new table into the file and frees the old one's blocks now, not at some later
          // automatic checkpoint. Skipped by DuckDB while readers hold older snapshots: harmless.
          if (result.compacted) await connection.run('CHECKPOINT').catch(() => undefined);
          return result;
        } finally {
          compacting = undefined;
          connection.closeSync();
        }
      });
    },

    deleteProjectEvents(projectId) {
      return serialWrite(async () => {
        if (isClosed) throw new Error('event store is closed');
        await inTransaction(writer, async () => {
          await writer.run('DELETE FROM events WHERE project_id = $project', { project: projectId });
          await deleteDerivedRows(writer, projectId);
        });
      });
    },

    async close() {
      if (isClosed) return;
      isClosed = true;
      // A compaction under way is rolled back rather than waited for (it may take a minute).
      compacting?.interrupt();
      await writes;
      for (const statement of [fillFromRows, ...fillFromSegment]) {
        statement.destroySync();
      }
      writer.closeSync();
      reader.closeSync();
      // Closing the last handle checkpoints the WAL into the file.
      instance.closeSync();
    },
  };
}
