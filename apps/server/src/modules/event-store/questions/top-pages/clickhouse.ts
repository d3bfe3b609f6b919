import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { type EventFilter, eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
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
 * Filtered: filteredTopPages.
 */
export async function topPages(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
): Promise<PageRow[]> {
  const filter = eventFilter(filters, range);
  if (filter.cte) return filteredTopPages(clickhouse, projectId, range, limit, filter);
  const rows = await clickhouse.rows(
    `${withCtes(transactionsCte(['path']))}
     SELECT page, sum(p_users) AS users, sum(p_wallets) AS wallets, sum(p_transactions) AS transactions
       FROM (
         SELECT assumeNotNull(path) AS page,
                uniqExactIf(user_id, type = 'page_view') AS p_users,
                uniqExactIf(wallet_address, type = 'wallet_connected') AS p_wallets,
                toUInt64(0) AS p_transactions
           FROM ${EVENT_ROWS}
          WHERE ${IN_RANGE} AND path IS NOT NULL
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
    { ...rangeParams(projectId, range), limit },
    PageRowSchema,
  );
  return rows.map(pageRowOf);
}

/**
 * Filtered: the passing sessions' events of the range are read once (their session keys are most of a
 * scan's cost, ADR 115) and grouped by page for the page views and connections, by transaction for the
 * stages of the transactions requested in the range in a passing session (found by their request key in
 * transaction_days, ADR 111). A transaction's path is its first stage's, which lies in the range and in
 * that session: the earliest of its stages among those events.
 */
async function filteredTopPages(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
  filter: EventFilter,
): Promise<PageRow[]> {
  const folds = transactionFolds({
    fromMs: range.fromMs - TX_STAGE_WINDOW_MS,
    toMs: range.toMs + TX_STAGE_WINDOW_MS,
  });
  const rows = await clickhouse.rows(
    `${withCtes(filter.cte)}
     SELECT assumeNotNull(page) AS page, sum(p_users) AS users, sum(p_wallets) AS wallets,
            sum(p_transactions) AS transactions
       FROM (
         SELECT if(is_tx, argMin(path, ts), any(path)) AS page,
                uniqExactIf(user_id, type = 'page_view') AS p_users,
                uniqExactIf(wallet_address, type = 'wallet_connected') AS p_wallets,
                toUInt64(is_tx) AS p_transactions
           FROM ${EVENT_ROWS}
          WHERE ${IN_RANGE}${filter.events}
            AND ((path IS NOT NULL AND (type = 'page_view' OR (type = 'wallet_connected' AND wallet_address IS NOT NULL)))
              OR (type = 'tx' AND tx_id IS NOT NULL AND tx_id IN (SELECT tx_id FROM (
                    ${folds.sql}
                    HAVING requested_at >= ${FROM} AND requested_at < ${TO} AND t_request_session ${filter.inSessions}))))
          GROUP BY type = 'tx' AS is_tx, if(is_tx, assumeNotNull(tx_id), assumeNotNull(path)) AS group_key
       )
      WHERE page IS NOT NULL
      GROUP BY page
      ORDER BY users DESC, wallets DESC, transactions DESC, page
      LIMIT {limit:UInt32}`,
    { ...rangeParams(projectId, range), ...filter.params, ...folds.params, limit },
    PageRowSchema,
  );
  return rows.map(pageRowOf);
}
