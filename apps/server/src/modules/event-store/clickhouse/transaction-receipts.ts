import type { ClickHouse } from './client.ts';
import { COPY_SPILL_BYTES } from './copy-spill.ts';
import { RECEIPT_FEE, RECEIPT_HAS_FEE, RECEIPT_KEY } from './question-sql.ts';

/**
 * `transaction_receipts`: the stages the failed-transaction cost reads (docs/wallets.md, "What failed
 * transactions cost"; docs/decisions/129): each `confirmed` and `reverted` stage with a fee (its fee in
 * wei, computed once here) and each `failed` stage, with its time, id, transaction, chain, contract
 * (`to`), selector and receipt key (its hash's: version 37), sorted as `events` is, by (project, time, id). A few per cent of a project's
 * events in a handful of narrow columns, so the question reads a range's receipts instead of all its
 * events' transaction columns. A ReplacingMergeTree on the events' own key, fed by a view on `events`: an
 * event stored twice is folded by merges, and the question keeps one row per (transaction, stage), the
 * latest, so a duplicate not yet merged changes nothing. The UTC day beside each row: a delete brings the
 * table in line as `transaction_days` (the same (day, transaction) keys, rebuilt from the stages that
 * stay; aligned-tables.ts).
 */

const FEE = `if(tx_stage = 'failed', toInt256(0), ${RECEIPT_FEE})`;

/** The rows for the events a SELECT reads (`where`: more conditions on them), in the table's column order. */
export const transactionReceiptsOfEvents = (where = '') =>
  `SELECT project_id, ts, id, toDate(ts, 'UTC') AS day, assumeNotNull(tx_id) AS tx_id,
         assumeNotNull(tx_stage) AS tx_stage, chain_id, tx_to, selector, ${FEE} AS fee,
         if(tx_stage = 'failed', toUInt64(0), ${RECEIPT_KEY}) AS receipt_key
    FROM events
   WHERE type = 'tx' AND tx_id IS NOT NULL
     AND ((tx_stage IN ('confirmed', 'reverted') AND ${RECEIPT_HAS_FEE}) OR tx_stage = 'failed')${where ? ` AND ${where}` : ''}`;

const KEY = 'project_id, ts, id';

/**
 * Version 35: the table (its column types those of the SELECT that fills it, as `contract_days`), the
 * view that feeds it, then the stored stages' rows sorted by the key (a stage loaded meanwhile reaches it
 * through the view, the copy or both, and folds away), merged into one part (`mergeTransactionReceipts`).
 */
export const TRANSACTION_RECEIPTS_STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS transaction_receipts
ENGINE = ReplacingMergeTree
ORDER BY (${KEY})
EMPTY AS ${transactionReceiptsOfEvents()}`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS transaction_receipts_of_events TO transaction_receipts AS
${transactionReceiptsOfEvents()}`,
  `INSERT INTO transaction_receipts ${transactionReceiptsOfEvents()}
   ORDER BY ${KEY}
SETTINGS max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];

/**
 * Version 37: the table made again with each receipt's key (its hash's, RECEIPT_KEY), so that the
 * failed-transaction cost counts each receipt hash of a transaction once (docs/wallets.md): its view and
 * table dropped, then made and filled as version 35.
 */
export const TRANSACTION_RECEIPT_KEYS_STATEMENTS = [
  'DROP VIEW IF EXISTS transaction_receipts_of_events',
  'DROP TABLE IF EXISTS transaction_receipts',
  ...TRANSACTION_RECEIPTS_STATEMENTS,
];

/** Version 35's (and 37's) copy, merged into one part as version 23 left every other table (ADR 097). */
export async function mergeTransactionReceipts(clickhouse: ClickHouse): Promise<void> {
  await clickhouse.command('OPTIMIZE TABLE transaction_receipts FINAL');
}
