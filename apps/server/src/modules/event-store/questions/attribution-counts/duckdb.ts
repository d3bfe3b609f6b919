import type { AcquisitionFilters, AttributionDimension } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { sessionFilter, type UserColumn, withSessionRows } from '../../duckdb/session-rows.ts';
import { LANDING_COLUMNS } from '../../duckdb/sessions.ts';
import { type Connection, FROM, rowsOf, TO } from '../../duckdb/sql.ts';
import { type AttributionCounts, AttributionRow, attributionCountsOf } from './question.ts';

/** A fixed map, never caller text: the dimension picks one of the sessions' landing columns. */
const DIMENSION_COLUMNS: Record<AttributionDimension, string> = {
  campaign: LANDING_COLUMNS.campaign[0],
  source: LANDING_COLUMNS.source[0],
  medium: LANDING_COLUMNS.medium[0],
  content: LANDING_COLUMNS.content[0],
  term: LANDING_COLUMNS.term[0],
};

/**
 * Sessions in the range grouped by their landing UTM value, plus the Total row, from the
 * per-session rows. "+ Wallets" counts wallets whose first connection ever (all time, whatever the
 * filters) happened in the range, in the session of that first connection (the derived `wallet_first_touches`).
 * Sessions are first folded per (value, user), so that a row's users are its (value, user) rows and the
 * Total row's, its users: no distinct count over sessions. Without filters, users are told apart by their
 * key, a number, unless two share one (session-rows.ts). Definitions: docs/acquisition-and-incidents.md.
 */
export async function attributionCounts(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  dimension: AttributionDimension,
  filters: AcquisitionFilters,
): Promise<AttributionCounts[]> {
  const filter = sessionFilter(filters);
  const value = DIMENSION_COLUMNS[dimension];
  const sql = (sessionRows: string, user: UserColumn) => `
    WITH ${sessionRows},
    passing AS (
      SELECT session_id, ${user} AS user_id, ${value} AS value, submitted_count AS transactions,
             connects
        FROM session_rows
       WHERE ${filter.condition}
    ),
    new_wallets AS (
      SELECT first_connected_session AS session_id, count(*) AS wallets
        FROM wallet_first_touches
       WHERE project_id = $project AND first_connected >= ${FROM} AND first_connected < ${TO}
       GROUP BY first_connected_session
    ),
    per_value AS (
      SELECT value, user_id,
             count(*) AS sessions,
             sum(transactions) AS transactions,
             count(*) FILTER (WHERE transactions > 0) AS sessions_with_tx,
             count(*) FILTER (WHERE connects > 0) AS sessions_with_connect,
             sum(connects) AS connects,
             sum(coalesce(wallets, 0)) AS wallets
        FROM passing LEFT JOIN new_wallets USING (session_id)
       GROUP BY value, user_id
    ),
    -- One row per user for the Total row, whose distinct users span every value.
    per_total AS (
      SELECT NULL::VARCHAR AS value, user_id, sum(sessions) AS sessions, sum(transactions) AS transactions,
             sum(sessions_with_tx) AS sessions_with_tx, sum(sessions_with_connect) AS sessions_with_connect,
             sum(connects) AS connects, sum(wallets) AS wallets
        FROM per_value
       GROUP BY user_id
    )
    SELECT is_total, value,
           coalesce(sum(wallets), 0)::DOUBLE AS new_wallets,
           sum(connects)::DOUBLE AS connects,
           sum(transactions)::DOUBLE AS transactions,
           coalesce(sum(sessions), 0)::DOUBLE AS sessions,
           count(user_id)::DOUBLE AS users,
           sum(sessions_with_tx)::DOUBLE AS sessions_with_tx,
           count(user_id) FILTER (WHERE sessions_with_tx > 0)::DOUBLE AS users_with_tx,
           sum(sessions_with_connect)::DOUBLE AS sessions_with_connect,
           count(user_id) FILTER (WHERE sessions_with_connect > 0)::DOUBLE AS users_with_connect
      FROM (SELECT false AS is_total, * FROM per_value
            UNION ALL BY NAME
            SELECT true AS is_total, * FROM per_total
            -- The Total row exists even without a session.
            UNION ALL BY NAME
            SELECT true AS is_total, NULL AS value)
     GROUP BY is_total, value`;
  const rows = await withSessionRows(
    connection,
    projectId,
    range,
    [value, 'submitted_count', 'connects', ...filter.columns],
    (sessionRows, params, user) =>
      rowsOf(connection, sql(sessionRows, user), { ...params, ...filter.params }, AttributionRow),
    // Filtered, few sessions pass: grouping them by id costs less than checking the keys (ADR 040).
    { byUserKey: filter.columns.length === 0 },
  );
  return rows.map(attributionCountsOf);
}
