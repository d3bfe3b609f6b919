import type { AcquisitionFilters, AttributionDimension } from '@polyflow/contracts/acquisition';
import type { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { CONNECTION_SUBSET } from '../../clickhouse/derived-tables.ts';
import type { SessionAggregate } from '../../clickhouse/session-days.ts';
import { foldedSessionRows, READ_RANGE_IN_PARALLEL } from '../../clickhouse/session-rows.ts';
import { FROM, rangeParams, TO } from '../../clickhouse/sql.ts';
import { walletsFirstConnectedIn } from '../../clickhouse/wallet-firsts.ts';
import { type AttributionCounts, AttributionRow, attributionCountsOf } from './question.ts';

/** A fixed map, never caller text: the dimension picks one of the sessions' landing columns. */
const DIMENSION_COLUMNS: Record<AttributionDimension, SessionAggregate> = {
  campaign: 'landing_campaign',
  source: 'landing_source',
  medium: 'landing_medium',
  content: 'landing_content',
  term: 'landing_term',
};

/**
 * The project's connections without FINAL: a copy of a connection not yet merged away changes no
 * minimum and no set of earlier wallets.
 */
const CONNECTIONS = CONNECTION_SUBSET.table;

/** The distinct values of a set column over the rows of folded sessions (the other rows never need it). */
const foldedSet = (column: string) =>
  `arrayDistinct(arrayFlatten(groupArrayIf(${column}, isNotNull(folded_session) AND notEmpty(${column}))))`;

const EMPTY_TOTAL: z.infer<typeof AttributionRow> = {
  is_total: true,
  value: null,
  new_wallets: 0,
  connects: 0,
  transactions: 0,
  sessions: 0,
  users: 0,
  sessions_with_tx: 0,
  users_with_tx: 0,
  sessions_with_connect: 0,
  users_with_connect: 0,
};

/**
 * Sessions in the range grouped by their landing UTM value, plus the Total row. "+ Wallets" counts
 * wallets whose first connection ever (all time, whatever the filters) happened in the range, in the
 * session of that first connection (the earlier session id breaks a tie): the wallets whose first
 * connection ever lies in the range (`wallet_firsts`, ADR 046, its folded minimum: about 1,300 wallets of
 * the bench's largest project in 30 days, where the wallets connected before the range that an earlier
 * version excluded were 12,500, ADR 116), and of their connections in the range (`wallet_connections`,
 * derived-tables.ts) the first. The new wallets reach the rows as two arrays (session ids, wallets) that
 * `transform` looks up: a join of the range's rows with them cost far more.
 *
 * The range's rows are read once (session-rows.ts, `foldedSessionRows`, ADR 043): one grouping sums the
 * rows that are sessions on their own per (value, user), and folds the rows of each repeated session id
 * per (user, session): its landing value their minimum, its sets their union, kept when it passes the
 * filters. A value's users are then the distinct users of its rows, the Total row's those of every row.
 * Definitions: docs/acquisition-and-incidents.md.
 */
export async function attributionCounts(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  dimension: AttributionDimension,
  filters: AcquisitionFilters,
): Promise<AttributionCounts[]> {
  const value = DIMENSION_COLUMNS[dimension];
  const rows = foldedSessionRows([value, 'submitted_txs', 'connect_ids'], filters, range);
  const wallets = 'transform(%s, wallets_by_session.1, wallets_by_session.2, 0)';
  const result = await clickhouse.rows(
    `WITH first_connections AS (
      SELECT min((ts, session_id)).2 AS session_id
        FROM ${CONNECTIONS}
       WHERE project_id = {project:String} AND ts >= ${FROM} AND ts < ${TO}
         AND wallet_address IN (${walletsFirstConnectedIn(FROM, TO)})
       GROUP BY wallet_address
    ),
    -- (session ids, their new wallets) in one aggregation: a grouping per session before it cost a
    -- statement a level more to plan (ADR 138).
    (SELECT sumMap([session_id], [toUInt64(1)]) FROM first_connections) AS wallets_by_session,
    ${rows.repeatedSessions},
    session_groups AS (
      SELECT if(isNull(folded_session), m_${value}, NULL) AS single_value, user_id,
             ${rows.foldedSession} AS folded_session,
             min(m_${value}) AS group_value,
             count() AS group_sessions,
             sum(length(m_submitted_txs)) AS group_transactions,
             countIf(notEmpty(m_submitted_txs)) AS group_with_tx,
             sum(length(m_connect_ids)) AS group_connects,
             countIf(notEmpty(m_connect_ids)) AS group_with_connect,
             sum(${wallets.replace('%s', 'session_id')}) AS group_wallets,
             length(${foldedSet('m_submitted_txs')}) AS folded_transactions,
             length(${foldedSet('m_connect_ids')}) AS folded_connects
        FROM ${rows.from}
       GROUP BY single_value, user_id, folded_session
      HAVING ${rows.passes}
    )
    -- ROLLUP: a row per value and the Total row in one pass (a UNION ALL would compute the CTEs once per
    -- branch). The Total row's users span every value: distinct users, not a sum. A group is one session
    -- (single: every row of it a session) or one folded session; its figures are taken inside the
    -- aggregates, where a SELECT of them between the two groupings cost a level more to plan (ADR 138).
    SELECT grouping(value) AS is_total, group_value AS value,
           sum(if(isNull(folded_session) AS single, group_wallets, ${wallets.replace('%s', 'assumeNotNull(folded_session)')})) AS new_wallets,
           sum(if(single, group_connects, folded_connects)) AS connects,
           sum(if(single, group_transactions, folded_transactions)) AS transactions,
           sum(if(single, group_sessions, 1)) AS sessions,
           uniqExact(user_id) AS users,
           sum(if(single, group_with_tx, folded_transactions > 0) AS s_with_tx) AS sessions_with_tx,
           uniqExactIf(user_id, s_with_tx > 0) AS users_with_tx,
           sum(if(single, group_with_connect, folded_connects > 0) AS s_with_connect) AS sessions_with_connect,
           uniqExactIf(user_id, s_with_connect > 0) AS users_with_connect
      FROM session_groups
     GROUP BY ROLLUP(value)
    ${READ_RANGE_IN_PARALLEL}`,
    { ...rangeParams(projectId, range), ...rows.params },
    AttributionRow,
  );
  // Without a session there is no row to roll up; the Total row still exists, all zero.
  if (!result.some((row) => row.is_total)) result.push(EMPTY_TOTAL);
  return result.map(attributionCountsOf);
}
