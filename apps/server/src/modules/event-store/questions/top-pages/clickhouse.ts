import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
import { EVENT_ROWS, FROM, IN_RANGE, rangeParams, TO, transactionsCte } from '../../clickhouse/sql.ts';
import { transactionFolds } from '../../clickhouse/transaction-days.ts';
import { TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { type PageRow, PageRowSchema, pageRowOf } from './question.ts';

/**
 * Per path: users who viewed it, wallets connected on it, transactions started on it (docs/analytics.md).
 * A path appears when any of the three happened on it in the range: the page views and connections are
 * counted in one pass (distinct counts: without FINAL), the transactions in their own part, and the
 * parts are added up per path (a path missing from a part counts 0 there). ClickHouse computes a CTE
 * again wherever it is named: one pass over the events finds the filtered sessions once there (ADR 086).
 */
export async function topPages(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
): Promise<PageRow[]> {
  const filter = eventFilter(filters, range);
  const folds = transactionFolds({
    fromMs: range.fromMs - TX_STAGE_WINDOW_MS,
    toMs: range.toMs + TX_STAGE_WINDOW_MS,
  });
  // Filtered: the transactions requested in the range in a passing session are found by their request key
  // (transaction_days, ADR 111); a transaction's path is its first stage's, which lies in the range and in
  // that session: the earliest of its stages among the passing sessions' events of the range.
  const transactions = filter.cte
    ? `transactions AS (
       SELECT argMin(path, ts) AS t_path
         FROM ${EVENT_ROWS}
        WHERE ${IN_RANGE}${filter.events} AND type = 'tx' AND tx_id IS NOT NULL
          AND tx_id IN (SELECT tx_id FROM (
                ${folds.sql}
                HAVING requested_at >= ${FROM} AND requested_at < ${TO} AND t_request_session ${filter.inSessions}))
        GROUP BY tx_id
     )`
    : transactionsCte(['path']);
  const rows = await clickhouse.rows(
    `${withCtes(filter.cte, transactions)}
     SELECT page, sum(p_users) AS users, sum(p_wallets) AS wallets, sum(p_transactions) AS transactions
       FROM (
         SELECT assumeNotNull(path) AS page,
                uniqExactIf(user_id, type = 'page_view') AS p_users,
                uniqExactIf(wallet_address, type = 'wallet_connected') AS p_wallets,
                toUInt64(0) AS p_transactions
           FROM ${EVENT_ROWS}
          WHERE ${IN_RANGE}${filter.events} AND path IS NOT NULL
            AND (type = 'page_view' OR (type = 'wallet_connected' AND wallet_address IS NOT NULL))
          GROUP BY page
         UNION ALL
         SELECT assumeNotNull(t_path) AS page, toUInt64(0), toUInt64(0), count()
           FROM transactions
          WHERE t_path IS NOT NULL
          GROUP BY page
       )
      GROUP BY page
      ORDER BY users DESC, wallets DESC, transactions DESC, page
      LIMIT {limit:UInt32}`,
    { ...rangeParams(projectId, range), ...filter.params, ...(filter.cte ? folds.params : {}), limit },
    PageRowSchema,
  );
  return rows.map(pageRowOf);
}
