import { COPY_SPILL_BYTES } from './copy-spill.ts';
/**
 * `session_events` (ADR 096): every event with the columns the wallet page reads of its sessions (the
 * timeline's and the first touch's), sorted by (project, session, time, id): the page reads its sessions'
 * events by the primary key instead of the days they span in `events` (sorted by time), whose granules
 * each hold minutes of the whole project and whose two dozen columns were decoded for a handful of rows.
 * A ReplacingMergeTree on (project, session, ts, id) like the subsets of `events` (ADR 026): an event
 * loaded twice is one row after merges, and the page keeps each event once by its id (`LIMIT 1 BY id`).
 * It keeps `user_id`, `wallet_address`, `tx_from` and `ts`, the columns every delete of events names, so
 * each delete takes the same rows out of it with the same condition.
 */

export const SESSION_EVENT_COLUMNS = [
  'project_id',
  'session_id',
  'ts',
  'id',
  'user_id',
  'type',
  'path',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'wallet_address',
  'wallet_provider',
  'chain_id',
  'tx_id',
  'tx_stage',
  'tx_hash',
  'tx_from',
  'tx_to',
  'selector',
  'gas_used',
  'effective_gas_price',
  'sig_stage',
  'sig_method',
  'error_source',
  'error_message',
  'error_code',
  'rpc_method',
  'incident_id',
  'gas_balance',
  'wallet_nonce',
] as const;

const SESSION_EVENTS_OF_EVENTS = `SELECT ${SESSION_EVENT_COLUMNS.join(', ')} FROM events`;

/** The table (its columns typed as in `events`, from schema.ts), the view that feeds it, then the stored rows. */
export const sessionEventsStatements = (columns: string) => [
  `CREATE TABLE IF NOT EXISTS session_events (
  ${columns}
) ENGINE = ReplacingMergeTree
ORDER BY (project_id, session_id, ts, id)`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS session_events_of_events TO session_events AS
${SESSION_EVENTS_OF_EVENTS}`,
  `INSERT INTO session_events (${SESSION_EVENT_COLUMNS.join(', ')}) ${SESSION_EVENTS_OF_EVENTS}
   ORDER BY project_id, session_id, ts, id
SETTINGS max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];
