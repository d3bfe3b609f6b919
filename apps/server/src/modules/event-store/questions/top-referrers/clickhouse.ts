import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
import { EVENTS, IN_RANGE, REFERRER_DOMAIN, rangeParams, transactionsCte } from '../../clickhouse/sql.ts';
import { type ReferrerRow, ReferrerRowSchema, referrerRowOf } from './question.ts';

/**
 * Sessions by where their first page view in the range came from (the referrer's domain; the dapp's own
 * host and no referrer count as direct, null), and per domain the users, the wallets connected and the
 * transactions started in those sessions (docs/analytics.md). Every domain of the wallets and
 * transactions parts is one of the landings', so adding the parts up per domain keeps exactly the
 * domains that have sessions.
 */
export async function topReferrers(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
): Promise<ReferrerRow[]> {
  const filter = eventFilter(filters);
  const rows = await clickhouse.rows(
    `${withCtes(filter.cte, transactionsCte(['session_id'], false, filter.transactions))},
     landings AS (
       SELECT session_id AS l_session,
              argMin(user_id, (ts, id)) AS l_user,
              argMin(${REFERRER_DOMAIN}, (ts, id)) AS l_domain
         FROM ${EVENTS}
        WHERE ${IN_RANGE}${filter.events} AND type = 'page_view'
        GROUP BY session_id
     )
     SELECT domain_key, sum(d_users) AS users, sum(d_wallets) AS wallets, sum(d_transactions) AS transactions
       FROM (
         SELECT l_domain AS domain_key, uniqExact(l_user) AS d_users,
                toUInt64(0) AS d_wallets, toUInt64(0) AS d_transactions
           FROM landings
          GROUP BY domain_key
         UNION ALL
         SELECT l_domain AS domain_key, toUInt64(0), uniqExact(wallet_address), toUInt64(0)
           FROM ${EVENTS} INNER JOIN landings ON session_id = l_session
          WHERE ${IN_RANGE}${filter.events} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
          GROUP BY domain_key
         UNION ALL
         SELECT l_domain AS domain_key, toUInt64(0), toUInt64(0), count()
           FROM transactions INNER JOIN landings ON t_session_id = l_session
          GROUP BY domain_key
       )
      GROUP BY domain_key
      ORDER BY users DESC, wallets DESC, transactions DESC, domain_key = '', domain_key
      LIMIT {limit:UInt32}`,
    { ...rangeParams(projectId, range), ...filter.params, limit },
    ReferrerRowSchema,
  );
  return rows.map(referrerRowOf);
}
