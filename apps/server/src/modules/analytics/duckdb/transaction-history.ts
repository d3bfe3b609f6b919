import type { DuckDBConnection } from '@duckdb/node-api';
import type { HistoryCursor } from '../cursor.ts';
import type { TimeRange } from '../time-range.ts';
import { numberOrNull, rangeParams, rowsOf, TRANSACTIONS_CTE, textOrNull } from './sql.ts';

export type HistoryRow = {
  id: string;
  hash: string | null;
  timeMs: number;
  wallet: string | null;
  kind: string | null;
  status: string;
  chainId: number | null;
  country: string | null;
  browser: string | null;
};

/** One page of the transactions requested in the range, newest first, strictly after `cursor`. */
export async function transactionHistory(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
  page: { limit: number; after: HistoryCursor | null },
): Promise<HistoryRow[]> {
  const rows = await rowsOf(
    connection,
    `WITH ${TRANSACTIONS_CTE}
     SELECT tx_id, hash, epoch_ms(requested_at) AS time_ms, wallet, kind, status, chain_id, country, browser
       FROM transactions
      WHERE $after_ms::BIGINT IS NULL
         OR requested_at < make_timestamp($after_ms::BIGINT * 1000)
         OR (requested_at = make_timestamp($after_ms::BIGINT * 1000) AND tx_id < $after_id::VARCHAR)
      ORDER BY requested_at DESC, tx_id DESC
      LIMIT $limit`,
    {
      ...rangeParams(projectId, range),
      after_ms: page.after ? BigInt(page.after.timeMs) : null,
      after_id: page.after?.id ?? null,
      limit: BigInt(page.limit),
    },
  );
  return rows.map((row) => ({
    id: String(row.tx_id),
    hash: textOrNull(row.hash),
    timeMs: Number(row.time_ms),
    wallet: textOrNull(row.wallet),
    kind: textOrNull(row.kind),
    status: String(row.status),
    chainId: numberOrNull(row.chain_id),
    country: textOrNull(row.country),
    browser: textOrNull(row.browser),
  }));
}
