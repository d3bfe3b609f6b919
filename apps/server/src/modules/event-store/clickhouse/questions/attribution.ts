import type { AcquisitionFilters, AttributionDimension } from '@polyflow/contracts/acquisition';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { AttributionCounts } from '../../acquisition-questions.ts';
import type { ClickHouse } from '../client.ts';
import { WALLET_CONNECTIONS } from '../derived-tables.ts';
import { count, flag, textOrNull } from '../question-sql.ts';
import { type SessionColumn, sessionRowsCte } from '../session-rows.ts';
import { FROM, rangeParams, TO } from '../sql.ts';

/** A fixed map, never caller text: the dimension picks one of the sessions' landing columns. */
const DIMENSION_COLUMNS: Record<AttributionDimension, SessionColumn> = {
  campaign: 'landing_campaign',
  source: 'landing_source',
  medium: 'landing_medium',
  content: 'landing_content',
  term: 'landing_term',
};

const AttributionRow = z.object({
  is_total: flag,
  value: textOrNull,
  new_wallets: count,
  connects: count,
  transactions: count,
  sessions: count,
  users: count,
  sessions_with_tx: count,
  users_with_tx: count,
  sessions_with_connect: count,
  users_with_connect: count,
});

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
 * session of that first connection (the earlier session id breaks a tie), found in the project's
 * connections alone (`wallet_connections`, derived-tables.ts). Sessions are first summed per
 * (value, user) from their signed rows (session-rows.ts: a (value, user) whose signs sum to 0 holds no
 * session); a value's users are its (value, user) rows, the Total row's their distinct users.
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
  const sessions = sessionRowsCte([value, 'submitted_count', 'connects'], filters, range);
  const rows = await clickhouse.rows(
    `WITH ${sessions.sql},
    first_connections AS (
      SELECT min(ts) AS first_connected, argMin(session_id, (ts, session_id)) AS session_id
        FROM ${WALLET_CONNECTIONS}
       WHERE project_id = {project:String} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
       GROUP BY wallet_address
    ),
    new_wallets AS (
      SELECT session_id, count() AS wallets
        FROM first_connections
       WHERE first_connected >= ${FROM} AND first_connected < ${TO}
       GROUP BY session_id
    ),
    per_value AS (
      SELECT s.${value} AS value, s.user_id AS user_id,
             sum(s.sign) AS per_sessions,
             sum(s.sign * s.submitted_count) AS per_transactions,
             sum(s.sign * (s.submitted_count > 0)) AS per_with_tx,
             sum(s.sign * (s.connects > 0)) AS per_with_connect,
             sum(s.sign * s.connects) AS per_connects,
             sum(s.sign * ifNull(w.wallets, 0)) AS per_wallets
        FROM session_rows AS s
        LEFT JOIN new_wallets AS w ON w.session_id = s.session_id
       GROUP BY value, user_id
      HAVING per_sessions > 0
    )
    -- ROLLUP: a row per value and the Total row in one pass over per_value (a UNION ALL would compute the
    -- CTEs once per branch). The Total row's users span every value: distinct users, not a sum.
    SELECT grouping(value) AS is_total, value,
           sum(per_wallets) AS new_wallets,
           sum(per_connects) AS connects,
           sum(per_transactions) AS transactions,
           sum(per_sessions) AS sessions,
           uniqExact(user_id) AS users,
           sum(per_with_tx) AS sessions_with_tx,
           uniqExactIf(user_id, per_with_tx > 0) AS users_with_tx,
           sum(per_with_connect) AS sessions_with_connect,
           uniqExactIf(user_id, per_with_connect > 0) AS users_with_connect
      FROM per_value
     GROUP BY ROLLUP(value)
    SETTINGS join_use_nulls = 1`,
    { ...rangeParams(projectId, range), ...sessions.params },
    AttributionRow,
  );
  // Without a session there is no row to roll up; the Total row still exists, all zero.
  if (!rows.some((row) => row.is_total)) rows.push(EMPTY_TOTAL);
  return rows.map((row) => ({
    isTotal: row.is_total,
    value: row.value,
    newWallets: row.new_wallets,
    connects: row.connects,
    transactions: row.transactions,
    sessions: row.sessions,
    users: row.users,
    sessionsWithTransaction: row.sessions_with_tx,
    usersWithTransaction: row.users_with_tx,
    sessionsWithConnect: row.sessions_with_connect,
    usersWithConnect: row.users_with_connect,
  }));
}
