import { type ColumnKind, EVENT_COLUMNS } from '../event-row.ts';

const SQL_TYPES: Record<ColumnKind, string> = {
  varchar: 'VARCHAR',
  timestamp: 'TIMESTAMP',
  bigint: 'BIGINT',
  // Wei, gas and nonces: exact, and SUM/AVG work in SQL (a uint256 beyond 2^127 is refused at ingestion).
  hugeint: 'HUGEINT',
};

const NOT_NULL = new Set([
  'project_id',
  'id',
  'type',
  'ts',
  'received_at',
  'user_id',
  'session_id',
  'origin',
]);

const columnList = EVENT_COLUMNS.map(
  ([name, kind]) => `${name} ${SQL_TYPES[kind]}${NOT_NULL.has(name) ? ' NOT NULL' : ''}`,
).join(',\n  ');

/**
 * One wide table. DuckDB has no sort key: rows stay in arrival order, so the zone maps of `received_at`
 * and `ts` prune time ranges well; every analytics query filters on `project_id` plus a time range.
 * The primary key is the de-duplication rule (an SDK retry carries the same client id).
 * TIMESTAMP columns hold UTC.
 */
export const CREATE_EVENTS_TABLE = `CREATE TABLE IF NOT EXISTS events (
  ${columnList},
  PRIMARY KEY (project_id, id)
)`;
