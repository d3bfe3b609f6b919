import type { TransactionRow } from '@polyflow/contracts/analytics';
import { csvField } from './event-formats.ts';

/** The history CSV's columns (docs/analytics.md#the-history-as-csv). */
export const TRANSACTIONS_CSV_HEADER = 'id,hash,time,wallet,type,status,chain_id,country,browser\r\n';

const line = (row: TransactionRow) =>
  `${[row.id, row.hash, row.time, row.wallet, row.type, row.status, row.chainId, row.country, row.browser]
    .map(csvField)
    .join(',')}\r\n`;

/** Lets every other callback waiting on the event loop run first (as the event export does). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The filtered history as CSV, a Buffer per page of rows, pulled one at a time by the HTTP response:
 * the header first (also for no rows), then each page in a turn of the event loop of its own.
 */
export async function* formatTransactionsCsv(pages: AsyncIterable<TransactionRow[]>) {
  yield Buffer.from(TRANSACTIONS_CSV_HEADER);
  for await (const rows of pages) {
    await nextTurn();
    yield Buffer.from(rows.map(line).join(''));
  }
}
