import type { DerivedTable } from './derived-table.ts';
import {
  CHAIN_COLUMNS,
  CHAIN_UPDATES,
  GAS_MOVES,
  IS_TX_STAGE,
  receiptColumns,
  receiptUpdates,
  SENDER_COLUMNS,
  SENDER_UPDATES,
  STATUS_COLUMNS,
  STATUS_UPDATES,
} from './transaction-summaries.ts';

/**
 * `sender_transactions`: per transaction, the columns of `transaction_summaries` the wallet page's gas
 * reads (its sender, first chain, latest stage and latest receipts' fees), derived the same way, but
 * clustered by (project, sender): the page reads the wallet's row group instead of every transaction of
 * the project, which `transaction_summaries` keeps in time order for the range questions (ADR 152).
 */
export const SENDER_TRANSACTIONS: DerivedTable = {
  name: 'sender_transactions',
  definedIn: 17,
  order: 'project_id, sender',
  rows: `SELECT project_id, tx_id, ${STATUS_COLUMNS},
       ${SENDER_COLUMNS},
       ${CHAIN_COLUMNS},
       ${receiptColumns('confirmed')},
       ${receiptColumns('reverted')}
  FROM {source} WHERE ${IS_TX_STAGE}
 GROUP BY project_id, tx_id`,
  onConflict: [
    `ON CONFLICT (project_id, tx_id) DO UPDATE SET
  ${STATUS_UPDATES},
  ${SENDER_UPDATES},
  ${CHAIN_UPDATES},
  ${receiptUpdates('confirmed')},
  ${receiptUpdates('reverted')}
  WHERE ${GAS_MOVES}`,
  ],
};
