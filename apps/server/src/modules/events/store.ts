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
   * The same for rows already serialised as a JSON array of objects (duckdb/rows-json.ts, the
   * ingestion log's record format), which may repeat stored ids: those rows are skipped.
   */
  insertJsonRows(json: string): Promise<void>;
  /**
   * The same for the ingestion log's batch records (a JSON array of `{request, events}`, SDK batches as
   * sent; duckdb/batch-records.ts), which the store maps to rows itself. May repeat stored ids.
   */
  insertBatchRecords(json: string): Promise<void>;
  integrationSummary(projectId: string, since: Date): Promise<IntegrationSummary>;
  findTxEvent(projectId: string, id: string): Promise<StoredTxEvent | null>;
  close(): Promise<void>;
}
