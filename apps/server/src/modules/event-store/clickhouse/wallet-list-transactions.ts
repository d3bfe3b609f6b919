import { COPY_SPILL_BYTES } from './copy-spill.ts';
import { RECEIPT_HAS_FEE } from './question-sql.ts';
import { STAGE_KEY, transactionDaysOfEvents } from './transaction-days.ts';

/**
 * `wallet_list_transactions`: one row per (project, UTC day, transaction) with what the Wallets list
 * reads of that transaction's stages of that day (docs/decisions/110): its first stage's time, the
 * earliest stage's sender (`from`, or the connected wallet), its latest stage's key (`STAGE_KEY`, as
 * `transaction_days`: the outcome in the two low bits) and the fee of its latest `confirmed` and latest
 * `reverted` receipt. The list's transaction totals (transactions, failed, gas paid per sender) fold these
 * rows per transaction instead of every stage of the range's events. An AggregatingMergeTree fed by a
 * materialized view on `events`, keyed as `transaction_days` (ADR 033): every column is a minimum or a
 * maximum (the sender and the fees as (time, value) pairs), so a stage stored twice, a transaction's
 * stages spread over several loads or days, or loads out of order fold to the same figures, and nothing
 * reads it with FINAL. A delete brings it in line as `transaction_days`: the same (day, transaction) keys.
 */

/** Below and above every stored time (DateTime64's range): the pairs of a stage without a sender or a fee. */
const NO_TIME_BEFORE = "toDateTime64('1900-01-01 00:00:00', 3, 'UTC')";
const NO_TIME_AFTER = "toDateTime64('2299-12-31 23:59:59.999', 3, 'UTC')";

/** A receipt's fee, as wei (docs/wallets.md). */
const FEE = 'toInt256(assumeNotNull(gas_used)) * toInt256(assumeNotNull(effective_gas_price))';
const SENDER = 'coalesce(tx_from, wallet_address)';
/** The latest receipt of one kind with a fee, as (time, fee): (before every time, 0) without one. */
const latestFee = (stage: string) =>
  `max(if(tx_stage = '${stage}' AND ${RECEIPT_HAS_FEE}, (ts, ${FEE}), (${NO_TIME_BEFORE}, toInt256(0))))`;

export const CREATE_WALLET_LIST_TRANSACTIONS = `CREATE TABLE IF NOT EXISTS wallet_list_transactions (
  project_id String,
  day Date,
  tx_id String,
  first_stage_at SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
  sender SimpleAggregateFunction(min, Tuple(DateTime64(3, 'UTC'), String)),
  latest_stage_key SimpleAggregateFunction(max, Int64),
  confirmed_fee SimpleAggregateFunction(max, Tuple(DateTime64(3, 'UTC'), Int256)),
  reverted_fee SimpleAggregateFunction(max, Tuple(DateTime64(3, 'UTC'), Int256))
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, day, tx_id)`;

/**
 * The aggregates of a transaction's stages (events), named as the table's columns: the view's, the
 * rebuilds', and those of the stages a question reads from `events` (the partial days of its window).
 * The sender: the earliest stage's with one (ties: the least text), as `argMin` skips a stage without.
 */
export const WALLET_LIST_TRANSACTION_AGGREGATES = `min(ts) AS first_stage_at,
         min(if(${SENDER} IS NULL, (${NO_TIME_AFTER}, ''), (ts, assumeNotNull(${SENDER})))) AS sender,
         max(${STAGE_KEY}) AS latest_stage_key,
         ${latestFee('confirmed')} AS confirmed_fee,
         ${latestFee('reverted')} AS reverted_fee`;

/** The rows of `wallet_list_transactions` for the events a SELECT reads: `transaction_days`' grouping, this table's columns. */
export const walletListTransactionsOfEvents = (where = '') =>
  transactionDaysOfEvents(where, WALLET_LIST_TRANSACTION_AGGREGATES);

/**
 * Version 25: the table, the view that feeds it, then the stored stages sorted by the key (a stage loaded
 * meanwhile reaches it through the view, the copy or both: the same minima and maxima), merged into one
 * part (schema.ts) as version 23 left every other table.
 */
export const WALLET_LIST_TRANSACTIONS_STATEMENTS = [
  CREATE_WALLET_LIST_TRANSACTIONS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS wallet_list_transactions_of_events TO wallet_list_transactions AS
${walletListTransactionsOfEvents()}`,
  `INSERT INTO wallet_list_transactions ${walletListTransactionsOfEvents()}
   ORDER BY project_id, day, tx_id
SETTINGS max_bytes_before_external_group_by = ${COPY_SPILL_BYTES},
         max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];
