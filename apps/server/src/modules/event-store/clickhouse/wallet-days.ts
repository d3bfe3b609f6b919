import { COPY_SPILL_BYTES } from './copy-spill.ts';

/**
 * `wallet_days`: one row per (project, UTC day, wallet) with the first time an event of that day
 * carried the wallet and the first time it connected that day
 * (docs/decisions/031-clickhouse-wallet-days.md). An AggregatingMergeTree fed by a materialized view on
 * `events`, like `session_days` (ADR 030): both columns are minima, so the same event stored twice, a
 * wallet's day spread over several loads, or loads arriving out of order all fold to the same row, and
 * nothing reads it with FINAL. The overview's active wallet-days, its connected and new wallets and the
 * charts of both read a range's whole days from it and its partial end days from `events`.
 *
 * The wallet column is `wallet`, not `wallet_address`: a ClickHouse alias is visible in the whole query,
 * and `assumeNotNull(wallet_address) AS wallet_address` would replace the column in the view's own WHERE.
 */

/** The UTC day an event falls in. */
const EVENT_DAY = "toDate(ts, 'UTC')";

export const CREATE_WALLET_DAYS = `CREATE TABLE IF NOT EXISTS wallet_days (
  project_id String,
  day Date,
  wallet String,
  first_seen SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
  first_connected SimpleAggregateFunction(min, Nullable(DateTime64(3, 'UTC')))
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, day, wallet)`;

/** The rows of `wallet_days` for the events a SELECT reads (`where`: more conditions on them). */
export const walletDaysOfEvents = (where = '') =>
  `SELECT project_id, ${EVENT_DAY} AS day, assumeNotNull(wallet_address) AS wallet,
         min(ts) AS first_seen,
         minIfOrNull(ts, type = 'wallet_connected') AS first_connected
    FROM events
   WHERE wallet_address IS NOT NULL${where ? ` AND ${where}` : ''}
   GROUP BY project_id, day, wallet`;

/**
 * The table, the view that feeds it, then the rows already stored: an event loaded while the schema
 * migrates reaches the table through the view, the copy or both, which folds to the same row; a
 * migration repeated after a failure copies again, harmlessly. The copy is sorted by the table's key:
 * it lands as parts of consecutive key ranges (one per million rows), which a read with FINAL takes as
 * they are; unsorted, every part spans every key and FINAL merges them all on each read (30–37 ms
 * instead of about 5 for the largest project's 30 days of the 10 M bench, ADR 031).
 */
export const WALLET_DAYS_STATEMENTS = [
  CREATE_WALLET_DAYS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS wallet_days_of_events TO wallet_days AS
${walletDaysOfEvents()}`,
  `INSERT INTO wallet_days ${walletDaysOfEvents()}
   ORDER BY project_id, day, wallet
SETTINGS max_bytes_before_external_group_by = ${COPY_SPILL_BYTES},
         max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];

/** The (day, wallet) keys of the events a condition names: the rows a user's or a wallet's delete touches. */
export const walletDayKeysOf = (where: string) =>
  `SELECT DISTINCT toString(${EVENT_DAY}) AS day, assumeNotNull(wallet_address) AS wallet
     FROM events
    WHERE wallet_address IS NOT NULL AND ${where}`;

export type WalletDayKey = { day: string; wallet: string };

/** Parameters: the first and last day of the keys (YYYY-MM-DD), and the keys as two arrays of text. */
export function walletDayKeyParams(keys: readonly WalletDayKey[]) {
  const days = keys.map((key) => key.day).sort();
  return {
    wallet_keys_from: days[0] ?? '1970-01-01',
    wallet_keys_to: days[days.length - 1] ?? '1970-01-01',
    wallet_key_days: keys.map((key) => key.day),
    wallet_key_wallets: keys.map((key) => key.wallet),
  };
}

const KEYS = 'arrayZip({wallet_key_days:Array(String)}, {wallet_key_wallets:Array(String)})';

/** The `wallet_days` rows of those keys. */
export const IN_WALLET_KEYS = `project_id = {project:String}
     AND day >= toDate({wallet_keys_from:String}) AND day <= toDate({wallet_keys_to:String})
     AND has(${KEYS}, (toString(day), wallet))`;

/** The events of those keys (with `walletDaysOfEvents`, which keeps those with a wallet). */
export const EVENTS_IN_WALLET_KEYS = `project_id = {project:String}
     AND ts >= toDateTime64({wallet_keys_from:String}, 3, 'UTC')
     AND ts < toDateTime64({wallet_keys_to:String}, 3, 'UTC') + INTERVAL 1 DAY
     AND has(${KEYS}, (toString(${EVENT_DAY}), assumeNotNull(wallet_address)))`;
