import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { type Connection, IN_RANGE, rangeParams, rowsOf, transactionsCte } from '../../duckdb/sql.ts';
import { type PageRow, PageRowSchema, pageRowOf } from './question.ts';

/**
 * Per path: users who viewed it, wallets connected on it, transactions started on it (docs/analytics.md).
 * A path appears when any of the three happened on it in the range.
 */
export async function topPages(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
): Promise<PageRow[]> {
  const filter = await eventFilter(connection, projectId, range, filters);
  const rows = await rowsOf(
    connection,
    `${withCtes(filter.cte, transactionsCte(['path'], false, filter.requests, filter.transactions))},
     viewed AS (
       SELECT path, count(DISTINCT user_id) AS users
         FROM events
        WHERE ${IN_RANGE}${filter.events} AND type = 'page_view' AND path IS NOT NULL
        GROUP BY path
     ),
     connected AS (
       SELECT path, count(DISTINCT wallet_address) AS wallets
         FROM events
        WHERE ${IN_RANGE}${filter.events} AND type = 'wallet_connected' AND wallet_address IS NOT NULL AND path IS NOT NULL
        GROUP BY path
     ),
     started AS (
       SELECT path, count(*) AS transactions FROM transactions WHERE path IS NOT NULL GROUP BY path
     )
     SELECT path AS page,
            coalesce(users, 0)::DOUBLE AS users,
            coalesce(wallets, 0)::DOUBLE AS wallets,
            coalesce(transactions, 0)::DOUBLE AS transactions
       FROM viewed FULL OUTER JOIN connected USING (path) FULL OUTER JOIN started USING (path)
      ORDER BY users DESC, wallets DESC, transactions DESC, path
      LIMIT $limit`,
    { ...rangeParams(projectId, range), ...filter.params, limit: BigInt(limit) },
    PageRowSchema,
  );
  return rows.map(pageRowOf);
}
