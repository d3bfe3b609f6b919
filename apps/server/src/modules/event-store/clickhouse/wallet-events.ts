import { COPY_SPILL_BYTES } from './copy-spill.ts';
/**
 * `wallet_events` (ADR 073): each event carrying a wallet (as the connected wallet or a transaction's
 * `from`), once per wallet it carries, with the columns the wallet page reads, sorted by (project, wallet,
 * time, id): the page reads the wallet's rows by the primary key instead of the project's events (a busy
 * wallet's events lie in nearly every granule of `events`, so no skip index on `events` would help).
 * A ReplacingMergeTree on (project, wallet, ts, id) like the subsets of `events` (ADR 026): an event
 * loaded twice is one row after merges, and every read is a minimum, maximum, set or distinct count that
 * a duplicate does not change. It keeps `user_id`, `wallet_address`, `tx_from` and `ts`, the columns every
 * delete of events names, so each delete takes the same rows out of it with the same condition.
 * Since schema version 17 it also holds each transaction stage's name, gas used and price (ADR 084): the
 * page's gas reads the stages of its transactions here when all of them carry the wallet.
 */

export const WALLET_EVENT_COLUMNS = [
  'project_id',
  'ts',
  'id',
  'session_id',
  'user_id',
  'type',
  'wallet_address',
  'tx_from',
  'country',
  'browser',
  'wallet_provider',
  'chain_id',
  'tx_id',
  // Schema version 17 (ADR 084): the page's gas from the wallet's own transaction stages.
  'tx_stage',
  'gas_used',
  'effective_gas_price',
  // Schema version 37 (ADR 165): each receipt hash of a transaction counted once.
  'tx_hash',
] as const;

const WALLET_EVENTS_OF_EVENTS = `SELECT wallet, ${WALLET_EVENT_COLUMNS.join(', ')}
  FROM events
 ARRAY JOIN arrayDistinct(arrayMap(w -> assumeNotNull(w), arrayFilter(w -> isNotNull(w), [wallet_address, tx_from]))) AS wallet
 WHERE wallet_address IS NOT NULL OR tx_from IS NOT NULL`;

/** The table (its columns typed as in `events`, from schema.ts), the view that feeds it, then the stored rows. */
export const walletEventsStatements = (columns: string) => [
  `CREATE TABLE IF NOT EXISTS wallet_events (
  wallet String,
  ${columns}
) ENGINE = ReplacingMergeTree
ORDER BY (project_id, wallet, ts, id)`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS wallet_events_of_events TO wallet_events AS
${WALLET_EVENTS_OF_EVENTS}`,
  `INSERT INTO wallet_events (wallet, ${WALLET_EVENT_COLUMNS.join(', ')}) ${WALLET_EVENTS_OF_EVENTS}
   ORDER BY project_id, wallet, ts, id
SETTINGS max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];
