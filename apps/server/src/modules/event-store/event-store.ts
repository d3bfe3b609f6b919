import type { EventRow } from './event-row.ts';

/** What the integration card needs, counted from `since`. */
export type IntegrationSummary = {
  eventsSince: number;
  lastEvent: { receivedAt: Date; origin: string; type: string } | null;
  origins: { origin: string; events: number; lastReceivedAt: Date }[];
};

/** The fields of a stored transaction event the published SDK's status update builds on. */
export type StoredTxEvent = Pick<
  EventRow,
  | 'id'
  | 'type'
  | 'user_id'
  | 'session_id'
  | 'origin'
  | 'tx_id'
  | 'tx_hash'
  | 'tx_from'
  | 'tx_to'
  | 'tx_kind'
  | 'chain_id'
>;

/**
 * The event store. DuckDB (a file in DATA_DIR) is the default; a ClickHouse store implements the same
 * interface later. Analytics queries live one file per query per engine, next to each implementation.
 */
export interface EventStore {
  /**
   * Stores, in one transaction, every row whose (project_id, id) is not stored yet. Answers, per row
   * in order, whether it was new (false: a duplicate, not stored again). Resolves only once durable.
   * Rows must not repeat a (project_id, id) among themselves.
   */
  insertBatch(rows: readonly EventRow[]): Promise<boolean[]>;
  /**
   * The same for every record of an ingestion log segment file (log-writer.ts: rows records,
   * duckdb/rows-json.ts, and batch records, duckdb/batch-records.ts, one per line), which the store
   * reads and maps to rows itself. May repeat stored ids: those events are skipped.
   */
  insertLogSegment(file: string): Promise<void>;
  integrationSummary(projectId: string, since: Date): Promise<IntegrationSummary>;
  findTxEvent(projectId: string, id: string): Promise<StoredTxEvent | null>;
  close(): Promise<void>;
}
