import { COPY_SPILL_BYTES } from './copy-spill.ts';

/**
 * `wallet_sent_transactions`: one row per (project, wallet, UTC day, transaction) of which a stage of that
 * day names the wallet as its sender (`from`, or the connected wallet: `wallet_list_transactions`' sender),
 * sorted by the wallet (docs/decisions/125). The Wallets list sorted by first or last seen reads its page's
 * transactions by this key instead of every sender of the stage window's `wallet_list_transactions` rows: a
 * transaction's earliest sender is one of its stages' senders, so the page's transactions are among those
 * listed under the page's wallets, then folded from `wallet_list_transactions` as before. A key alone, in
 * an AggregatingMergeTree (a row stored twice is folded away by merges, and reads twice as one `IN`), fed
 * by a materialized view on `events`; a delete brings it in line as `transaction_days`: the same (day,
 * transaction) keys, rebuilt from the stages that stay.
 */

export const CREATE_WALLET_SENT_TRANSACTIONS = `CREATE TABLE IF NOT EXISTS wallet_sent_transactions (
  project_id String,
  wallet String,
  day Date,
  tx_id String
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, wallet, day, tx_id)`;

const SENDER = 'coalesce(tx_from, wallet_address)';

/** The rows for the events a SELECT reads (`where`: more conditions on them), in the table's column order. */
export const walletSentTransactionsOfEvents = (where = '') =>
  `SELECT DISTINCT project_id, assumeNotNull(${SENDER}) AS wallet, toDate(ts, 'UTC') AS day,
         assumeNotNull(tx_id) AS tx_id
    FROM events
   WHERE type = 'tx' AND tx_id IS NOT NULL AND ${SENDER} IS NOT NULL${where ? ` AND ${where}` : ''}`;

/**
 * Version 33: the table, the view that feeds it, then the stored stages' rows sorted by the key (a stage
 * loaded meanwhile reaches it through the view, the copy or both: the same key), merged into one part
 * (schema.ts).
 */
export const WALLET_SENT_TRANSACTIONS_STATEMENTS = [
  CREATE_WALLET_SENT_TRANSACTIONS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS wallet_sent_transactions_of_events TO wallet_sent_transactions AS
${walletSentTransactionsOfEvents()}`,
  `INSERT INTO wallet_sent_transactions ${walletSentTransactionsOfEvents()}
   ORDER BY project_id, wallet, day, tx_id
SETTINGS max_bytes_before_external_group_by = ${COPY_SPILL_BYTES},
         max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];

/** The page's transactions (`p_tx`) over the whole days `wholeDays` names: those a page wallet sent a stage of. */
export const pageTransactionsOf = (wholeDays: string) =>
  `SELECT tx_id AS p_tx FROM wallet_sent_transactions
        WHERE project_id = {project:String} AND wallet IN {page_wallets:Array(String)} AND ${wholeDays}`;
