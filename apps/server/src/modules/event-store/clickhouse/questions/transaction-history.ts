import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { HistoryPage, TransactionHistoryRow } from '../../analytics-questions.ts';
import type { ClickHouse } from '../client.ts';
import { EVENTS, LATEST_STAGE, ms, rangeParams, STAGE_WINDOW, transactionsCte } from '../sql.ts';

const HistoryRow = z.object({
  transaction_id: z.string(),
  time_ms: z.coerce.number(),
  t_hash: z.string().nullable(),
  t_wallet: z.string().nullable(),
  t_kind: z.string().nullable(),
  t_status: z.string(),
  t_chain_id: z.coerce.number().nullable(),
  t_country: z.string().nullable(),
  t_browser: z.string().nullable(),
});

const AFTER = "fromUnixTimestamp64Milli({after_ms:Nullable(Int64)}, 'UTC')";

/** One page of the transactions requested in the range, newest first, strictly after `cursor`. */
export async function transactionHistory(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  page: HistoryPage,
): Promise<TransactionHistoryRow[]> {
  const rows = await clickhouse.rows(
    // Two steps: the page's transactions by their first stage alone (one cheap aggregate), then the
    // full fields of only those (their first stage is their request: the same window, the same minimum).
    `WITH ${transactionsCte()},
     page AS (
       SELECT tx_id FROM transactions
        WHERE {after_ms:Nullable(Int64)} IS NULL
           OR requested_at < ${AFTER}
           OR (requested_at = ${AFTER} AND tx_id < {after_id:Nullable(String)})
        ORDER BY requested_at DESC, tx_id DESC
        LIMIT {limit:UInt32}
     )
     SELECT assumeNotNull(tx_id) AS transaction_id, ${ms('min(ts)')} AS time_ms,
            max(tx_hash) AS t_hash, argMin(coalesce(tx_from, wallet_address), ts) AS t_wallet,
            any(tx_kind) AS t_kind, ${LATEST_STAGE} AS t_status, argMin(chain_id, ts) AS t_chain_id,
            argMin(country, ts) AS t_country, argMin(browser, ts) AS t_browser
       FROM ${EVENTS}
      WHERE project_id = {project:String} AND type = 'tx' AND ${STAGE_WINDOW}
        AND tx_id IN (SELECT tx_id FROM page)
      GROUP BY tx_id
      ORDER BY time_ms DESC, transaction_id DESC`,
    {
      ...rangeParams(projectId, range),
      after_ms: page.after ? page.after.timeMs : null,
      after_id: page.after?.id ?? null,
      limit: page.limit,
    },
    HistoryRow,
  );
  return rows.map((row) => ({
    id: row.transaction_id,
    hash: row.t_hash,
    timeMs: row.time_ms,
    wallet: row.t_wallet,
    kind: row.t_kind,
    status: row.t_status,
    chainId: row.t_chain_id,
    country: row.t_country,
    browser: row.t_browser,
  }));
}
