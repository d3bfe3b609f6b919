import type { TimeRange } from '../../../../reading/time-range.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import {
  type Connection,
  historyFilterSql,
  LATEST_STAGE,
  rangeParams,
  rowsOf,
  STAGE_WINDOW,
  transactionsCte,
} from '../../duckdb/sql.ts';
import {
  type HistoryFilter,
  type HistoryPage,
  HistoryRow,
  historyRowOf,
  NO_FILTER,
  type TransactionHistoryRow,
} from './question.ts';

/** One page of the transactions requested in the range that the filter keeps, newest first, strictly after `cursor`. */
export async function transactionHistory(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  page: HistoryPage,
  filter: HistoryFilter = NO_FILTER,
): Promise<TransactionHistoryRow[]> {
  const kept = historyFilterSql(filter);
  const sessions = await eventFilter(connection, projectId, range, filter.sessions ?? undefined);
  const having = [kept.having, sessions.transactions].filter(Boolean).join(' AND ');
  const rows = await rowsOf(
    connection,
    // Two steps: the page's transactions by their first stage alone (one cheap aggregate), then the
    // full fields of only those.
    `${withCtes(sessions.cte, transactionsCte([], false, [kept.where, sessions.requests].filter(Boolean).join(' AND '), having))},
     page AS (
       SELECT tx_id, requested_at FROM transactions
        WHERE $after_ms::BIGINT IS NULL
           OR requested_at < make_timestamp($after_ms::BIGINT * 1000)
           OR (requested_at = make_timestamp($after_ms::BIGINT * 1000) AND tx_id < $after_id::VARCHAR)
        ORDER BY requested_at DESC, tx_id DESC
        LIMIT $limit
     )
     SELECT tx_id AS transaction_id, any_value(requested_at) AS requested_at,
            epoch_ms(any_value(requested_at)) AS time_ms,
            max(tx_hash) AS t_hash, arg_min(coalesce(tx_from, wallet_address), ts) AS t_wallet,
            any_value(tx_kind) AS t_kind, ${LATEST_STAGE} AS t_status, arg_min(chain_id, ts) AS t_chain_id,
            arg_min(country, ts) AS t_country, arg_min(browser, ts) AS t_browser
       FROM page JOIN events USING (tx_id)
      WHERE project_id = $project AND type = 'tx' AND ${STAGE_WINDOW}
      GROUP BY tx_id
      ORDER BY requested_at DESC, tx_id DESC`,
    {
      ...rangeParams(projectId, range),
      ...kept.params,
      ...sessions.params,
      after_ms: page.after ? BigInt(page.after.timeMs) : null,
      after_id: page.after?.id ?? null,
      limit: BigInt(page.limit),
    },
    HistoryRow,
  );
  return rows.map(historyRowOf);
}
