import type { ClickHouse } from './client.ts';
import { COPY_SPILL_BYTES } from './copy-spill.ts';
import type { dayParts } from './day-parts.ts';
import { RECEIPT_FEE as FEE, feeOfReceipts, RECEIPT_HAS_FEE, RECEIPT_KEY } from './question-sql.ts';
import { EVENT_ROWS, FROM, TO } from './sql.ts';
import { latestOutcome, STAGE_KEY, transactionDaysOfEvents } from './transaction-days.ts';
import { pageTransactionsOf } from './wallet-sent-transactions.ts';

/**
 * `wallet_list_transactions`: one row per (project, UTC day, transaction) with what the Wallets list
 * reads of that transaction's stages of that day (docs/decisions/110): its first stage's time, the
 * earliest stage's sender (`from`, or the connected wallet), its latest stage's key (`STAGE_KEY`, as
 * `transaction_days`: the outcome its last character) and its receipts (version 37: each `confirmed` and
 * `reverted` stage with a fee, as (receipt key, time, event id, fee), of which each key's latest counts, by
 * time, then the greatest event id: docs/wallets.md). The list's transaction
 * totals (transactions, failed, gas paid per sender) fold these rows per transaction instead of every
 * stage of the range's events. An AggregatingMergeTree fed by a materialized view on `events`, keyed as
 * `transaction_days` (ADR 033): every column is a minimum, a maximum or a set (the sender as a (time, value)
 * pair, the receipts a set of tuples), so a stage stored twice, a transaction's stages
 * spread over several loads or days, or loads out of order fold to the same figures, and nothing
 * reads it with FINAL. A delete brings it in line as `transaction_days`: the same (day, transaction) keys.
 */

/** Above every stored time (DateTime64's range): the pair of a stage without a sender. */
const NO_TIME_AFTER = "toDateTime64('2299-12-31 23:59:59.999', 3, 'UTC')";

const SENDER = 'coalesce(tx_from, wallet_address)';
/** A transaction's receipts of a day: each receipt stage with a fee as (receipt key, time, event id, fee). */
const RECEIPTS_TYPE = "Array(Tuple(UInt64, DateTime64(3, 'UTC'), String, Int256))";

export const CREATE_WALLET_LIST_TRANSACTIONS = `CREATE TABLE IF NOT EXISTS wallet_list_transactions (
  project_id String,
  day Date,
  tx_id String,
  first_stage_at SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
  sender SimpleAggregateFunction(min, Tuple(DateTime64(3, 'UTC'), String)),
  latest_stage_key SimpleAggregateFunction(max, String),
  receipts SimpleAggregateFunction(groupUniqArrayArray, ${RECEIPTS_TYPE})
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
         groupUniqArrayIf((${RECEIPT_KEY}, ts, id, ${FEE}),
                          tx_stage IN ('confirmed', 'reverted') AND ${RECEIPT_HAS_FEE}) AS receipts`;

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

/**
 * Version 36: the table made again with each fee's (time, event id, fee) in place of version 25's
 * (time, fee), whose maximum kept the larger fee of two receipts in one millisecond (docs/wallets.md: the
 * greatest id's): its view and table dropped, then made and filled from the stored stages as version 25.
 * Version 37 runs the same statements for its set of receipts (ADR 165), version 38 for the latest stage
 * key as text (`transaction_days`' STAGE_KEY, with the event id); each makes today's table.
 */
export const WALLET_LIST_RECEIPT_IDS_STATEMENTS = [
  'DROP VIEW IF EXISTS wallet_list_transactions_of_events',
  'DROP TABLE IF EXISTS wallet_list_transactions',
  ...WALLET_LIST_TRANSACTIONS_STATEMENTS,
];

/** Version 36's (and 37's, 38's) copy, merged into one part as version 23 left every other table (ADR 097). */
export async function mergeWalletListTransactions(clickhouse: ClickHouse): Promise<void> {
  await clickhouse.command('OPTIMIZE TABLE wallet_list_transactions FINAL');
}

type DayParts = ReturnType<typeof dayParts>;

/**
 * `tx_totals`: per wallet, the transactions it requested in the range (the sender of a transaction's
 * first stage), those whose latest stage is `failed` or `reverted`, and the fees of their latest receipts
 * of each kind (docs/wallets.md). Each transaction is folded from what `wallet_list_transactions` holds of
 * its stages on the whole UTC days of the stage window (the range and one day either side, the one-day
 * rule) and from the stages of that window's partial days in `events` (the same aggregates): `window`,
 * `dayParts` with the prefix `x_`. The sender's (time, value) pair folds by `argMin` of its parts (a
 * tuple's own min compares generically, several times the CPU); two rows of one transaction hold
 * different days, so their times differ unless a day's stages arrived in loads not merged yet. The fees
 * fold by (time, event id), as two receipts of one millisecond can sit in two such loads' rows.
 * Every wallet's (`allTxTotalsOf`), or with `page`, those of the wallets `{page_wallets}` alone: their
 * transactions are among those of which a stage names one of them as its sender (its earliest sender is
 * one of its stages'), found by the key in `wallet_sent_transactions` over the whole days (ADR 125) and
 * among the partial days' stages.
 */
const txTotalsOf = (window: DayParts, page = false) => {
  const parts: string[] = [];
  const pageParts: string[] = [];
  if (window.wholeDays) {
    pageParts.push(pageTransactionsOf(window.wholeDays));
    parts.push(`${WHOLE_DAY_ROWS} FROM wallet_list_transactions
        WHERE project_id = {project:String} AND ${window.wholeDays}${page ? ' AND tx_id IN (SELECT p_tx FROM page_txs)' : ''}`);
  }
  if (window.partialDays) {
    pageParts.push(`SELECT assumeNotNull(tx_id) AS p_tx ${partialStages(window.partialDays)}
                  AND coalesce(tx_from, wallet_address) IN {page_wallets:Array(String)}`);
    parts.push(partialRowsOf(window.partialDays, page ? ' AND tx_id IN (SELECT p_tx FROM page_txs)' : ''));
  }
  return `${
    page
      ? `page_txs AS (
       ${pageParts.join('\n        UNION ALL\n       ')}
     ),
     `
      : ''
  }txs AS (
       ${foldedTxs(parts)}
     ),
     ${txTotals(page ? ' WHERE x_wallet IN {page_wallets:Array(String)}' : '')}`;
};

/** `wallet_list_transactions`' columns as the fold names them (`r_`). */
const WHOLE_DAY_ROWS = `SELECT tx_id AS r_tx, first_stage_at AS r_first, sender AS r_sender, latest_stage_key AS r_key,
              receipts AS r_receipts`;
/** The stages of the partial days (`partialDays`, a condition on `ts`) in `events`. */
const partialStages = (partialDays: string) => `FROM ${EVENT_ROWS}
                WHERE project_id = {project:String} AND type = 'tx' AND tx_id IS NOT NULL
                  AND ${partialDays}`;
/** The partial days' stages folded per transaction into `wallet_list_transactions`' aggregates (`r_`). */
const partialRowsOf = (partialDays: string, where = '') =>
  `SELECT r_tx, first_stage_at AS r_first, sender AS r_sender, latest_stage_key AS r_key,
              receipts AS r_receipts
         FROM (SELECT assumeNotNull(tx_id) AS r_tx, ${WALLET_LIST_TRANSACTION_AGGREGATES}
                 ${partialStages(partialDays)}${where}
                GROUP BY r_tx)`;
/** The transactions of the rows `parts` (UNION ALL) folded, those first staged in the range kept (`x_`). */
const foldedTxs = (parts: string[]) =>
  `SELECT argMin(r_sender.2, r_sender.1) AS x_wallet, max(r_key) AS x_key,
              ${feeOfReceipts('groupUniqArrayArray(r_receipts)')} AS x_fee
         FROM (${parts.join('\n        UNION ALL\n       ')})
        GROUP BY r_tx
       HAVING min(r_first) >= ${FROM} AND min(r_first) < ${TO}`;
const txTotals = (where: string) => `tx_totals AS (
       SELECT x_wallet AS t_wallet, count() AS t_transactions,
              countIf(${latestOutcome('x_key')} != 0) AS t_failed, sum(x_fee) AS t_gas
         FROM txs${where} GROUP BY t_wallet
     )`;

/**
 * `tx_totals` of every wallet (`txTotalsOf` without a page). Nearly every transaction of the window has one
 * row of `wallet_list_transactions` (its stages fall on one UTC day) and no stage on a partial day: its
 * fold is that row, which goes straight to the totals; only the others (`multi`: the hashes of the whole
 * days' transaction ids seen more than once, and of the partial days' transactions) are folded by id. The
 * fold of every transaction by its id was most of the list's CPU on chdb sorted by gas paid. A hash shared
 * by two transactions sends both to the fold, which is exact; `multi` is a scalar, computed once while
 * planning (a CTE would be read again where named).
 */
export const allTxTotalsOf = (window: DayParts) => {
  if (!window.wholeDays) return txTotalsOf(window);
  const wholeDays = `FROM wallet_list_transactions
        WHERE project_id = {project:String} AND ${window.wholeDays}`;
  const multi = [`SELECT cityHash64(tx_id) AS m_hash ${wholeDays} GROUP BY m_hash HAVING count() > 1`];
  const folded = [`${WHOLE_DAY_ROWS} ${wholeDays} AND cityHash64(tx_id) IN multi`];
  if (window.partialDays) {
    multi.push(`SELECT DISTINCT cityHash64(assumeNotNull(tx_id)) ${partialStages(window.partialDays)}`);
    folded.push(partialRowsOf(window.partialDays));
  }
  return `(SELECT groupArray(m_hash) FROM (${multi.join('\n        UNION ALL\n       ')})) AS multi,
     txs AS (
       SELECT sender.2 AS x_wallet, latest_stage_key AS x_key, ${feeOfReceipts('receipts')} AS x_fee
         ${wholeDays} AND first_stage_at >= ${FROM} AND first_stage_at < ${TO} AND cityHash64(tx_id) NOT IN multi
       UNION ALL
       ${foldedTxs(folded)}
     ),
     ${txTotals('')}`;
};

/** `tx_totals` of the wallets `{page_wallets}` alone (`txTotalsOf` with `page`). */
export const pageTxTotalsOf = (window: DayParts) => txTotalsOf(window, true);
