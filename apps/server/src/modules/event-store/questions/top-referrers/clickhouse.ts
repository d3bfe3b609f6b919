import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
import { EVENT_ROWS, FROM, IN_RANGE, REFERRER_DOMAIN, rangeParams, TO } from '../../clickhouse/sql.ts';
import { transactionFolds } from '../../clickhouse/transaction-days.ts';
import { TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { type ReferrerRow, ReferrerRowSchema, referrerRowOf } from './question.ts';

/**
 * Sessions by where their first page view in the range came from (the referrer's domain; the dapp's own
 * host and no referrer count as direct, null), and per domain the users, the wallets connected and the
 * transactions started in those sessions (docs/analytics.md). One pass over the range's page views and
 * connections groups them by session (ClickHouse computes a CTE again wherever it is named, and a
 * `landings` named three times also found the filtered sessions three times, ADR 086): each landed
 * session's landing user and domain and the set of wallets it connected, read without FINAL (a first
 * page view and a set do not change for an event stored twice); the transactions started in it are
 * joined by session and added up. Sessions are grouped and joined by their key (`session_key`, ADR 093).
 */
export async function topReferrers(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  limit: number,
  filters?: AnalyticsFilters,
): Promise<ReferrerRow[]> {
  const filter = eventFilter(filters, range);
  // The transactions requested in the range (in a passing session), by their request's session.
  const folds = transactionFolds({
    fromMs: range.fromMs - TX_STAGE_WINDOW_MS,
    toMs: range.toMs + TX_STAGE_WINDOW_MS,
  });
  const transactions = `transactions AS (
       ${folds.sql}
       HAVING requested_at >= ${FROM} AND requested_at < ${TO}${filter.inSessions ? ` AND t_request_session ${filter.inSessions}` : ''}
     )`;
  const rows = await clickhouse.rows(
    `${withCtes(filter.cte, transactions)}
     SELECT l_domain AS domain_key,
            uniqExact(l_user) AS users,
            uniqExactArray(s_wallets) AS wallets,
            sum(s_transactions) AS transactions
       FROM (
         SELECT session_key AS s_session,
                argMinIf(user_id, (ts, id), type = 'page_view') AS l_user,
                argMinIf(${REFERRER_DOMAIN}, (ts, id), type = 'page_view') AS l_domain,
                groupUniqArrayIf(assumeNotNull(wallet_address), type = 'wallet_connected' AND wallet_address IS NOT NULL) AS s_wallets
           FROM ${EVENT_ROWS}
          WHERE ${IN_RANGE}${filter.events} AND type IN ('page_view', 'wallet_connected')
          GROUP BY session_key
         HAVING countIf(type = 'page_view') > 0
       ) AS landed
       LEFT JOIN (
         SELECT t_request_session, count() AS s_transactions FROM transactions GROUP BY t_request_session
       ) AS started ON started.t_request_session = landed.s_session
      GROUP BY domain_key
      ORDER BY users DESC, wallets DESC, transactions DESC, domain_key = '', domain_key
      LIMIT {limit:UInt32}`,
    { ...rangeParams(projectId, range), ...filter.params, ...folds.params, limit },
    ReferrerRowSchema,
  );
  return rows.map(referrerRowOf);
}
