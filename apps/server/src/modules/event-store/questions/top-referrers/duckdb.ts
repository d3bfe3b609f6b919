import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import {
  type Connection,
  IN_RANGE,
  REFERRER_DOMAIN,
  rangeParams,
  rowsOf,
  transactionsCte,
} from '../../duckdb/sql.ts';
import { type ReferrerRow, ReferrerRowSchema, referrerRowOf } from './question.ts';

/**
 * Sessions by where their first page view in the range came from (the referrer's domain; the dapp's own
 * host and no referrer count as direct, null), and per domain the users, the wallets connected and the
 * transactions started in those sessions (docs/analytics.md). Sessions are grouped and joined by their
 * key (`session_key`, ADR 093).
 */
export async function topReferrers(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
): Promise<ReferrerRow[]> {
  const filter = await eventFilter(connection, projectId, range, filters);
  const rows = await rowsOf(
    connection,
    `${withCtes(filter.cte, transactionsCte(['session_key'], false, filter.requests, filter.transactions))},
     landings AS (
       SELECT session_key,
              arg_min(user_id, (ts, id)) AS user_id,
              -- '' for direct inside arg_min, which skips NULLs (it would take a later page view's referrer).
              nullif(arg_min(coalesce(${REFERRER_DOMAIN}, ''), (ts, id)), '') AS domain
         FROM events
        WHERE ${IN_RANGE}${filter.events} AND type = 'page_view'
        GROUP BY session_key
     ),
     visited AS (
       SELECT domain, count(DISTINCT user_id) AS users FROM landings GROUP BY domain
     ),
     connected AS (
       SELECT landings.domain, count(DISTINCT events.wallet_address) AS wallets
         FROM events JOIN landings USING (session_key)
        WHERE ${IN_RANGE}${filter.events} AND events.type = 'wallet_connected' AND events.wallet_address IS NOT NULL
        GROUP BY landings.domain
     ),
     started AS (
       SELECT landings.domain, count(*) AS transactions
         FROM transactions JOIN landings USING (session_key)
        GROUP BY landings.domain
     )
     SELECT visited.domain AS domain_key,
            users::DOUBLE AS users,
            coalesce(wallets, 0)::DOUBLE AS wallets,
            coalesce(transactions, 0)::DOUBLE AS transactions
       FROM visited
       LEFT JOIN connected ON connected.domain IS NOT DISTINCT FROM visited.domain
       LEFT JOIN started ON started.domain IS NOT DISTINCT FROM visited.domain
      ORDER BY users DESC, wallets DESC, transactions DESC, visited.domain NULLS LAST
      LIMIT $limit`,
    { ...rangeParams(projectId, range), ...filter.params, limit: BigInt(limit) },
    ReferrerRowSchema,
  );
  return rows.map(referrerRowOf);
}
