import { STAGE_ORDER, SUBMITTED_STAGES } from './sql.ts';

/**
 * `transaction_days`: one row per (project, UTC day, transaction) with what the transaction outcomes
 * read of that transaction's stages of that day (docs/decisions/033-clickhouse-transaction-days.md): its
 * first stage's time, whether one was a submitted stage, and the state of its latest stage (`argMax` by
 * time, then rank). An AggregatingMergeTree fed by a materialized view on `events`, like `session_days`
 * and `wallet_days`: a minimum, a maximum and an argMax state fold the same whatever the number of
 * copies of a stage, the loads it came in or their order.
 */

/** The UTC day an event falls in. */
const EVENT_DAY = "toDate(ts, 'UTC')";

export const CREATE_TRANSACTION_DAYS = `CREATE TABLE IF NOT EXISTS transaction_days (
  project_id String,
  day Date,
  tx_id String,
  first_stage_at SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
  has_submitted SimpleAggregateFunction(max, UInt8),
  latest_stage AggregateFunction(argMax, Nullable(String), Int64)
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, day, tx_id)`;

/** The aggregates over a transaction's stages, for the view, the partial days of a question and rebuilds. */
export const TRANSACTION_DAY_AGGREGATES = `min(ts) AS first_stage_at,
         max(toUInt8(ifNull(tx_stage IN ${SUBMITTED_STAGES}, 0))) AS has_submitted,
         argMaxState(CAST(tx_stage, 'Nullable(String)'), toInt64(${STAGE_ORDER})) AS latest_stage`;

/** The rows of `transaction_days` for the events a SELECT reads (`where`: more conditions on them). */
export const transactionDaysOfEvents = (where = '') =>
  `SELECT project_id, ${EVENT_DAY} AS day, assumeNotNull(tx_id) AS tx_id,
         ${TRANSACTION_DAY_AGGREGATES}
    FROM events
   WHERE type = 'tx' AND tx_id IS NOT NULL${where ? ` AND ${where}` : ''}
   GROUP BY project_id, day, tx_id`;

/** As the other tables' copies: a GROUP BY, or a sort, over every transaction-day spills past 1 GB. */
const COPY_SPILL_BYTES = 1_000_000_000;

/** The table, the view, then the stored stages, sorted by the key (ADR 031). */
export const TRANSACTION_DAYS_STATEMENTS = [
  CREATE_TRANSACTION_DAYS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS transaction_days_of_events TO transaction_days AS
${transactionDaysOfEvents()}`,
  `INSERT INTO transaction_days ${transactionDaysOfEvents()}
   ORDER BY project_id, day, tx_id
SETTINGS max_bytes_before_external_group_by = ${COPY_SPILL_BYTES},
         max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];

/** The (day, transaction) keys of the events a condition names: the rows a user's or a wallet's delete touches. */
export const transactionDayKeysOf = (where: string) =>
  `SELECT DISTINCT toString(${EVENT_DAY}) AS day, assumeNotNull(tx_id) AS tx
     FROM events
    WHERE type = 'tx' AND tx_id IS NOT NULL AND ${where}`;

export type TransactionDayKey = { day: string; tx: string };

/** Parameters: the first and last day of the keys (YYYY-MM-DD), and the keys as two arrays of text. */
export function transactionDayKeyParams(keys: readonly TransactionDayKey[]) {
  const days = keys.map((key) => key.day).sort();
  return {
    tx_keys_from: days[0] ?? '1970-01-01',
    tx_keys_to: days[days.length - 1] ?? '1970-01-01',
    tx_key_days: keys.map((key) => key.day),
    tx_key_ids: keys.map((key) => key.tx),
  };
}

const KEYS = 'arrayZip({tx_key_days:Array(String)}, {tx_key_ids:Array(String)})';

/** The `transaction_days` rows of those keys. */
export const IN_TRANSACTION_KEYS = `project_id = {project:String}
     AND day >= toDate({tx_keys_from:String}) AND day <= toDate({tx_keys_to:String})
     AND has(${KEYS}, (toString(day), tx_id))`;

/** The events of those keys (with `transactionDaysOfEvents`, which keeps the transactions' stages). */
export const EVENTS_IN_TRANSACTION_KEYS = `project_id = {project:String}
     AND ts >= toDateTime64({tx_keys_from:String}, 3, 'UTC')
     AND ts < toDateTime64({tx_keys_to:String}, 3, 'UTC') + INTERVAL 1 DAY
     AND has(${KEYS}, (toString(${EVENT_DAY}), assumeNotNull(tx_id)))`;
