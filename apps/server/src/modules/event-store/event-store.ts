import type { AcquisitionQuestions } from './acquisition-questions.ts';
import type { AlertQuestions } from './alert-questions.ts';
import type { AnalyticsQuestions } from './analytics-questions.ts';
import type { CustomEventQuestions } from './custom-event-questions.ts';
import type { EventBatch } from './event-batch.ts';
import type { EventRow } from './event-row.ts';
import type { ExportText } from './export-lines.ts';
import type { FunnelQuestions } from './funnel-questions.ts';
import type { GoalQuestions } from './goal-questions.ts';
import type { IncidentQuestions } from './incident-questions.ts';
import type { FindTxEventQuestion } from './questions/find-tx-event/question.ts';
import type { IntegrationSummaryQuestion } from './questions/integration-summary/question.ts';
import type { WalletQuestions } from './wallet-questions.ts';

export type { ExportFormat, ExportText } from './export-lines.ts';
export type { StoredTxEvent } from './questions/find-tx-event/question.ts';
export type { IntegrationSummary } from './questions/integration-summary/question.ts';

/**
 * The event store, as a port (docs/decisions/006-event-store-port.md). Ingestion writes through its write
 * side; the analytics, acquisition and incident services read through its read side, one method per
 * question a dashboard asks. Each question is one folder, questions/<question>/: its signature and zod
 * row schema (question.ts) beside its DuckDB and ClickHouse SQL (duckdb.ts, clickhouse.ts), which both
 * parse their rows with that schema. Domain constants are in domain.ts. Each engine's adapter folder
 * (`duckdb/`, `clickhouse/`) alone imports its driver and holds its schema, derived tables, writer and
 * export. `test/support/event-stores.ts` runs the exact-answer suites against whichever adapter is chosen.
 */

export type EventWriter = {
  /**
   * Stores every event of an ingestion log segment file (log-records.ts), which the store reads itself,
   * in one transaction, with whatever the adapter derives from them. Idempotent: an event whose
   * (project_id, id) is stored already is skipped, so a segment may be loaded again after a crash.
   */
  loadSegment(file: string): Promise<void>;
  /**
   * Whether `loadSegment` failed on a record's content (malformed JSON, a value the columns cannot take):
   * the same records would fail again, so the loader sets them aside (ingest-log/quarantine.ts). False for
   * failures of the store itself (a full disk, a closed store), which a later retry can get past.
   */
  isRecordError(error: unknown): boolean;
  /** Deletes every event of the project (the project was deleted). */
  deleteProjectEvents(projectId: string): Promise<void>;
  /**
   * Deletes the project's events whose client time is before `before` (the project's retention) and
   * answers how many it deleted.
   */
  deleteEventsBefore(projectId: string, before: Date): Promise<number>;
  /**
   * Deletes the project's events that carry this wallet (as the connected wallet or a transaction's
   * sender; compared lower-cased) and answers how many it deleted (a data-subject request).
   */
  deleteWalletEvents(projectId: string, wallet: string): Promise<number>;
  /** Deletes the project's events of this SDK user and answers how many it deleted. */
  deleteUserEvents(projectId: string, userId: string): Promise<number>;
};

/**
 * Client times `from` (included) to `to` (excluded). With `text`, the store writes the export's lines
 * itself, on the engine's threads, and its batches carry `text` (export-lines.ts, docs/decisions/077).
 */
export type ExportRange = { from: Date; to: Date; text?: ExportText };

export type IngestionQuestions = IntegrationSummaryQuestion &
  FindTxEventQuestion & {
    /** Every stored event of the project as rows, oldest received first (tests). */
    projectEvents(projectId: string): Promise<EventRow[]>;
    /**
     * Every stored event of the project whose client time is in `range`, in (ts, id) order, for the raw
     * export: batches that write their values into the export's format (event-batch.ts). Bounded memory
     * whatever the size: an adapter holds a few thousand rows at a time and reads on only when the
     * consumer pulls (DuckDB: windows of one query each, duckdb/export-events.ts; ClickHouse: keyset pages).
     * Rows loaded meanwhile may or may not appear. With `range.text`, the batches are the export's bytes
     * as the engine wrote them (formatted off the JavaScript thread).
     */
    exportEvents(projectId: string, range: ExportRange): AsyncIterable<EventBatch>;
  };

export type EventReader = IngestionQuestions &
  AnalyticsQuestions &
  AcquisitionQuestions &
  IncidentQuestions &
  WalletQuestions &
  AlertQuestions &
  CustomEventQuestions &
  FunnelQuestions &
  GoalQuestions;

export type EventStore = EventWriter &
  EventReader & {
    /**
     * Starts what the engine needs in the background (DuckDB: re-clustering the table), logging to
     * `logger`; `stop` ends it. Called once the server listens.
     */
    startMaintenance(logger: MaintenanceLogger): { stop(): Promise<void> };
    /**
     * Writes a consistent copy of every stored event into a new database file at `file`, while the store
     * keeps serving (the admin CLI's backup, src/admin/). Only engines whose data lives in DATA_DIR offer
     * it; a server store (ClickHouse) is backed up with its own tools.
     */
    copyInto?(file: string): Promise<void>;
    /** Resolves when the store answers a query (health check); rejects with the store's error otherwise. */
    ping(): Promise<void>;
    /** Waits for the write under way, then releases the engine. */
    close(): Promise<void>;
  };

export type MaintenanceLogger = {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
};

/** How app.ts gets its event store: the adapter chosen by configuration (tests: by EVENT_STORE). */
export type EventStoreFactory = (options: { dataDir: string }) => Promise<EventStore>;
