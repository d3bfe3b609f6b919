import { type ColumnKind, EVENT_COLUMNS } from '../event-row.ts';

const SQL_TYPES: Record<ColumnKind, string> = {
  varchar: 'VARCHAR',
  timestamp: 'TIMESTAMP',
  bigint: 'BIGINT',
  // Wei, gas and nonces: exact, and SUM/AVG work in SQL (a uint256 beyond 2^127 is refused at ingestion).
  hugeint: 'HUGEINT',
};

/**
 * HUGEINT columns are stored run-length encoded or uncompressed, never bit-packed: DuckDB reads bit-packed
 * HUGEINT segments row by row when a filter (the project) selects rows, which made every query reading
 * gas or fees over a large project's rows many times slower (docs/decisions/060-hugeint-compression.md).
 * The catalog keeps the choice, so later checkpoints follow it; a table created before it changes when
 * compaction rewrites it (compaction.ts builds `events_next` from this statement).
 */
const COMPRESSION: Partial<Record<ColumnKind, string>> = { hugeint: ' USING COMPRESSION rle' };

/**
 * A 64-bit key of a text id: the upper half of its MD5, as `sessions` and `keyed_user_lives` store users
 * (sessions.ts userKeyOf). MD5, not `hash()`: DuckDB's hash may change between versions, and a stored key
 * must equal the one computed for the same id later.
 */
export const keyOf = (column: string) => `(md5_number(${column}) >> 64)::UBIGINT`;

/**
 * Columns of `events` that the store computes from an event's text ids, not read from the SDK (ADR 093):
 * the session's and the user's 64-bit keys, so that the filtered questions group and join sessions by a
 * number instead of hashing the text ids. Two ids share a key with a probability bounded in
 * docs/analytics.md ("Filters"). Every load fills them (event-writer.ts); a file from before them gets
 * them added and filled when it opens (addMissingEventColumns).
 */
export const EVENT_KEY_COLUMNS = [
  { name: 'session_key', of: 'session_id' },
  { name: 'user_key', of: 'user_id' },
] as const;

/** The key columns' values as a SELECT list, for an insert into `events` BY NAME. */
export const EVENT_KEY_VALUES = EVENT_KEY_COLUMNS.map(({ name, of }) => `${keyOf(of)} AS ${name}`).join(', ');

/** Fills the key columns of the rows that lack them (a file from before them, a bench's generated rows). */
export const FILL_EVENT_KEYS = `UPDATE events SET ${EVENT_KEY_COLUMNS.map(({ name, of }) => `${name} = ${keyOf(of)}`).join(', ')}
 WHERE ${EVENT_KEY_COLUMNS.map(({ name }) => `${name} IS NULL`).join(' OR ')}`;

const KEY_NAMES: readonly string[] = EVENT_KEY_COLUMNS.map(({ name }) => name);

const columnList = [
  ...EVENT_COLUMNS.map(
    ({ name, kind, required }) =>
      `${name} ${SQL_TYPES[kind]}${required ? ' NOT NULL' : ''}${COMPRESSION[kind] ?? ''}`,
  ),
  ...EVENT_KEY_COLUMNS.map(({ name }) => `${name} UBIGINT`),
].join(',\n  ');

/**
 * The statements that bring an `events` table whose columns are `all` (in table order) to EVENT_COLUMNS
 * and EVENT_KEY_COLUMNS: a column added to event-row.ts after the file was created is added at the end,
 * as it is in the column table. Only optional columns can be added (older rows have none), and only at
 * the end: a file whose event-row columns are not a prefix of today's (another version's order) gets
 * none, and the store refuses to open it with the reason. Missing key columns are added and filled.
 */
export function addMissingEventColumns(all: readonly string[]): string[] {
  const wanted = EVENT_COLUMNS.map(({ name }) => name);
  // The key columns are matched by name: a column of event-row added after them follows them.
  const existing = all.filter((name) => !KEY_NAMES.includes(name));
  const mismatch = existing.findIndex((name, index) => wanted[index] !== name);
  if (mismatch >= 0)
    throw new Error(
      `events.duckdb: column ${mismatch + 1} of events is ${existing[mismatch]}, expected ${wanted[mismatch] ?? 'none'}; this file comes from another version of Polyflow`,
    );
  const added = EVENT_COLUMNS.slice(existing.length).map(({ name, kind, required }) => {
    if (required)
      throw new Error(`events.duckdb: the required column ${name} cannot be added to stored rows`);
    return `ALTER TABLE events ADD COLUMN ${name} ${SQL_TYPES[kind]}`;
  });
  const keys = EVENT_KEY_COLUMNS.filter(({ name }) => !all.includes(name)).map(
    ({ name }) => `ALTER TABLE events ADD COLUMN ${name} UBIGINT`,
  );
  // Stored rows get their keys once, with the columns (10 M events: seconds).
  return keys.length === 0 ? added : [...added, ...keys, FILL_EVENT_KEYS];
}

/** The `events` table's columns in table order: what addMissingEventColumns takes. */
export const SELECT_EVENT_COLUMN_NAMES = `SELECT column_name FROM duckdb_columns()
 WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'events'
 ORDER BY column_index`;

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

/**
 * Small tables derived from `events` that the dashboard queries read instead of scanning a large
 * project's events (docs/decisions/005-derived-tables.md). The store keeps them in step with every
 * insert, in the same transaction (duckdb/derived-tables.ts); each holds only facts that re-applying
 * an already stored event cannot change (sets, minima, maxima, "any"), so a duplicate is harmless.
 * Bump DERIVED_TABLES_VERSION whenever one of them changes, and set that table's `definedIn` to it
 * (derived-tables.ts): on start-up the store rebuilds the tables defined after the file's version.
 */
export const DERIVED_TABLES_VERSION = 18;

export const CREATE_DERIVED_TABLES = [
  // Per wallet: when any event first carried it (with that event's id and landing UTM source and campaign),
  // and its first `wallet_connected` (time and session).
  `CREATE TABLE IF NOT EXISTS wallet_first_touches (
  project_id VARCHAR NOT NULL,
  wallet_address VARCHAR NOT NULL,
  first_seen TIMESTAMP NOT NULL,
  first_connected TIMESTAMP,
  first_connected_session VARCHAR,
  first_id VARCHAR NOT NULL,
  first_source VARCHAR,
  first_campaign VARCHAR,
  PRIMARY KEY (project_id, wallet_address)
)`,
  // The UTC days on which a user, and a wallet, had any event.
  `CREATE TABLE IF NOT EXISTS user_days (
  project_id VARCHAR NOT NULL,
  day DATE NOT NULL,
  user_id VARCHAR NOT NULL,
  PRIMARY KEY (project_id, day, user_id)
)`,
  // Per user: the first and the last UTC day with any event (docs/decisions/029: the incidents' reach),
  // and the user's key (derived-tables.ts userKeyOf; ADR 040).
  `CREATE TABLE IF NOT EXISTS keyed_user_lives (
  project_id VARCHAR NOT NULL,
  user_id VARCHAR NOT NULL,
  first_day DATE NOT NULL,
  last_day DATE NOT NULL,
  user_key UBIGINT NOT NULL,
  PRIMARY KEY (project_id, user_id)
)`,
  // Per session key: its span and the values the Analytics filters test (keyed-sessions.ts; ADR 109).
  `CREATE TABLE IF NOT EXISTS keyed_sessions (
  project_id VARCHAR NOT NULL,
  session_key UBIGINT NOT NULL,
  first_ts TIMESTAMP NOT NULL,
  last_ts TIMESTAMP NOT NULL,
  countries VARCHAR[] NOT NULL,
  browsers VARCHAR[] NOT NULL,
  oses VARCHAR[] NOT NULL,
  devices VARCHAR[] NOT NULL,
  wallet_providers VARCHAR[] NOT NULL,
  chains BIGINT[] NOT NULL,
  utm_sources VARCHAR[] NOT NULL,
  utm_mediums VARCHAR[] NOT NULL,
  utm_campaigns VARCHAR[] NOT NULL,
  pages VARCHAR[] NOT NULL,
  landing_ts TIMESTAMP,
  landing_id VARCHAR,
  landing_referrer VARCHAR,
  PRIMARY KEY (project_id, session_key)
)`,
  `CREATE TABLE IF NOT EXISTS wallet_active_days (
  project_id VARCHAR NOT NULL,
  day DATE NOT NULL,
  wallet_address VARCHAR NOT NULL,
  PRIMARY KEY (project_id, day, wallet_address)
)`,
  // The (UTC quarter-hour, wallet) pairs with an event: a zoned project's local days (ADR 087), with the
  // wallet's 128-bit MD5 (ADR 095).
  `CREATE TABLE IF NOT EXISTS wallet_quarters (
  project_id VARCHAR NOT NULL,
  quarter TIMESTAMP NOT NULL,
  wallet VARCHAR NOT NULL,
  wallet_hash UHUGEINT NOT NULL,
  PRIMARY KEY (project_id, quarter, wallet)
)`,
  // The (UTC quarter-hour, user) pairs with an event, with the user's 128-bit MD5: a zoned project's
  // user-days (ADR 095).
  `CREATE TABLE IF NOT EXISTS user_quarters (
  project_id VARCHAR NOT NULL,
  quarter TIMESTAMP NOT NULL,
  user_id VARCHAR NOT NULL,
  user_hash UHUGEINT NOT NULL,
  PRIMARY KEY (project_id, quarter, user_id)
)`,
  // Per (session, user): what the funnel and the attribution table ask of the session's events.
  `CREATE TABLE IF NOT EXISTS sessions (
  project_id VARCHAR NOT NULL,
  session_id VARCHAR NOT NULL,
  user_id VARCHAR NOT NULL,
  first_ts TIMESTAMP NOT NULL,
  last_ts TIMESTAMP NOT NULL,
  has_wallet BOOLEAN NOT NULL,
  has_connected BOOLEAN NOT NULL,
  has_signed BOOLEAN NOT NULL,
  submitted_txs VARCHAR[] NOT NULL,
  landing_campaign VARCHAR,
  landing_source VARCHAR,
  landing_medium VARCHAR,
  landing_content VARCHAR,
  landing_term VARCHAR,
  countries VARCHAR[] NOT NULL,
  browsers VARCHAR[] NOT NULL,
  wallet_providers VARCHAR[] NOT NULL,
  utm_sources VARCHAR[] NOT NULL,
  utm_mediums VARCHAR[] NOT NULL,
  utm_campaigns VARCHAR[] NOT NULL,
  utm_contents VARCHAR[] NOT NULL,
  utm_terms VARCHAR[] NOT NULL,
  connect_ids VARCHAR[] NOT NULL,
  submitted_count INTEGER NOT NULL,
  first_submitted_tx VARCHAR,
  last_submitted_tx VARCHAR,
  connects INTEGER NOT NULL,
  value_sets VARCHAR NOT NULL,
  user_key UBIGINT NOT NULL,
  PRIMARY KEY (project_id, session_id, user_id)
)`,
  // The incident occurrences (error events with an incident id), with the columns the incident list reads.
  `CREATE TABLE IF NOT EXISTS incident_occurrences (
  project_id VARCHAR NOT NULL,
  id VARCHAR NOT NULL,
  incident_id VARCHAR NOT NULL,
  ts TIMESTAMP NOT NULL,
  user_id VARCHAR NOT NULL,
  session_id VARCHAR NOT NULL,
  wallet_address VARCHAR,
  error_source VARCHAR,
  error_message VARCHAR,
  error_stack VARCHAR,
  error_code BIGINT,
  rpc_method VARCHAR,
  PRIMARY KEY (project_id, id)
)`,
  // The `failed` and `reverted` stages of transactions: what an incident may have made fail.
  `CREATE TABLE IF NOT EXISTS transaction_failures (
  project_id VARCHAR NOT NULL,
  id VARCHAR NOT NULL,
  tx_id VARCHAR NOT NULL,
  session_id VARCHAR NOT NULL,
  ts TIMESTAMP NOT NULL,
  PRIMARY KEY (project_id, id)
)`,
  // Per transaction (tx_id): its first and last stages' times, its latest stage with that stage's order
  // and event id (sql.ts STAGE_KEY) and whether it reached `submitted`: what the transaction outcomes count.
  `CREATE TABLE IF NOT EXISTS transaction_summaries (
  project_id VARCHAR NOT NULL,
  tx_id VARCHAR NOT NULL,
  requested_at TIMESTAMP NOT NULL,
  last_ts TIMESTAMP NOT NULL,
  status_key BIGINT NOT NULL,
  status_id VARCHAR NOT NULL,
  status VARCHAR,
  is_submitted BOOLEAN NOT NULL,
  sender VARCHAR,
  sender_ts TIMESTAMP,
  sender_id VARCHAR,
  chain_id BIGINT,
  chain_ts TIMESTAMP,
  chain_event_id VARCHAR,
  confirmed_fee HUGEINT,
  confirmed_ts TIMESTAMP,
  confirmed_id VARCHAR,
  confirmed_chain BIGINT,
  reverted_fee HUGEINT,
  reverted_ts TIMESTAMP,
  reverted_id VARCHAR,
  reverted_chain BIGINT,
  reverted_to VARCHAR,
  reverted_selector VARCHAR,
  receipt_key_min UBIGINT,
  receipt_key_max UBIGINT,
  request_id VARCHAR NOT NULL,
  session_key UBIGINT NOT NULL,
  PRIMARY KEY (project_id, tx_id)
)`,
  // Per (wallet, session): the events carrying the wallet (as the connected wallet or a transaction's
  // `from`) in that session: the first (time, id), the latest time, the first connection of it, and the
  // distinct countries, browsers, providers and chains (ADR 073: the wallet page without a project scan).
  `CREATE TABLE IF NOT EXISTS wallet_sessions (
  project_id VARCHAR NOT NULL,
  wallet_address VARCHAR NOT NULL,
  session_id VARCHAR NOT NULL,
  first_ts TIMESTAMP NOT NULL,
  first_id VARCHAR NOT NULL,
  last_ts TIMESTAMP NOT NULL,
  connected_ts TIMESTAMP,
  countries VARCHAR[] NOT NULL,
  browsers VARCHAR[] NOT NULL,
  providers VARCHAR[] NOT NULL,
  chains BIGINT[] NOT NULL,
  PRIMARY KEY (project_id, wallet_address, session_id)
)`,
  // Per incident: its first occurrence of any source, its life (first and last occurrence of an incident
  // source) and the figures of its latest occurrences: at the latest time, the greatest id, and the
  // greatest id with a title, a code, a method (NULL when none there has one); the latest occurrence
  // with a wallet by (time, id). Each value beside the id it came from, so that loads merge in any order
  // (docs/decisions/031).
  `CREATE TABLE IF NOT EXISTS incident_spans (
  project_id VARCHAR NOT NULL,
  incident_id VARCHAR NOT NULL,
  first_any_ts TIMESTAMP NOT NULL,
  error_source VARCHAR,
  first_ts TIMESTAMP,
  last_ts TIMESTAMP,
  latest_id VARCHAR,
  title_id VARCHAR,
  title VARCHAR,
  code_id VARCHAR,
  code BIGINT,
  method_id VARCHAR,
  method VARCHAR,
  wallet_ts TIMESTAMP,
  wallet_id VARCHAR,
  wallet VARCHAR,
  PRIMARY KEY (project_id, incident_id)
)`,
  // What an incident's lifetime counts, as sets: its occurrences (event ids), users, wallets, UTC days
  // ('YYYY-MM-DD') and the failed transactions it made fail (tx ids), one row per member (ADR 035).
  `CREATE TABLE IF NOT EXISTS incident_members (
  project_id VARCHAR NOT NULL,
  incident_id VARCHAR NOT NULL,
  kind VARCHAR NOT NULL,
  member VARCHAR NOT NULL,
  PRIMARY KEY (project_id, incident_id, kind, member)
)`,
  // The custom and identify events with what the Events questions read (ADR 072), and the columns every
  // delete of events names: every column as in `events`, the same columns as ClickHouse's `custom_events`
  // (ADR 090).
  `CREATE TABLE IF NOT EXISTS custom_events (
  project_id VARCHAR NOT NULL,
  type VARCHAR NOT NULL,
  ts TIMESTAMP NOT NULL,
  id VARCHAR NOT NULL,
  user_id VARCHAR NOT NULL,
  wallet_address VARCHAR,
  tx_from VARCHAR,
  event_name VARCHAR,
  app_user_id VARCHAR,
  props VARCHAR,
  PRIMARY KEY (project_id, id)
)`,
  `CREATE TABLE IF NOT EXISTS derived_tables_version (version INTEGER NOT NULL)`,
];
