import type { DuckDBConnection } from '@duckdb/node-api';
import type { AcquisitionFilters, AttributionDimension } from '@polyflow/contracts/acquisition';
import { FROM, IN_RANGE, rangeParams, rowsOf, SUBMITTED_STAGES } from '../../analytics/duckdb/sql.ts';
import type { TimeRange } from '../../analytics/time-range.ts';
import { inMatching, sessionFilter } from './sql.ts';

/** The raw counts of one row; the service adds the rates. `value` null: Total (isTotal) or Unattributed. */
export type AttributionCounts = {
  isTotal: boolean;
  value: string | null;
  newWallets: number;
  connects: number;
  transactions: number;
  sessions: number;
  users: number;
  sessionsWithTransaction: number;
  usersWithTransaction: number;
  sessionsWithConnect: number;
  usersWithConnect: number;
};

/** A fixed map, never caller text: the dimension picks one of these columns. */
const DIMENSION_COLUMNS: Record<AttributionDimension, string> = {
  campaign: 'utm_campaign',
  source: 'utm_source',
  medium: 'utm_medium',
  content: 'utm_content',
  term: 'utm_term',
};

/**
 * Sessions in the range grouped by their landing UTM value, plus the Total row (GROUPING SETS).
 * "+ Wallets" counts wallets whose first connection ever (all time, whatever the filters) happened in the
 * range, in the session of that first connection. Definitions: docs/acquisition-and-incidents.md.
 */
export async function attributionCounts(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
  dimension: AttributionDimension,
  filters: AcquisitionFilters,
): Promise<AttributionCounts[]> {
  const column = DIMENSION_COLUMNS[dimension];
  const filter = sessionFilter(filters);
  const isFiltered = filter.columns.length > 0;
  const columns = [
    'session_id',
    'user_id',
    'ts',
    'type',
    'tx_id',
    'tx_stage',
    'wallet_address',
    `${column} AS dimension_value`,
  ];
  const sql = `
    WITH scoped AS MATERIALIZED (
      SELECT ${[...columns, ...filter.columns].join(', ')} FROM events WHERE ${IN_RANGE}
    ),
    ${isFiltered ? `${filter.cte('scoped')},` : ''}
    sessions AS (
      SELECT session_id,
             any_value(user_id) AS user_id,
             -- The SDK sends the landing UTM on every event of a session; blank counts as absent.
             min(NULLIF(trim(dimension_value), '')) AS value,
             count(*) FILTER (WHERE type = 'wallet_connected') AS connects,
             count(DISTINCT tx_id) FILTER (WHERE type = 'tx' AND tx_stage IN ${SUBMITTED_STAGES}) AS transactions
        FROM scoped
       WHERE true ${inMatching(filter)}
       GROUP BY session_id
    ),
    -- Wallets connected before the range: a narrow scan (4 columns) of the history before it.
    earlier_wallets AS (
      SELECT DISTINCT wallet_address FROM events
       WHERE project_id = $project AND type = 'wallet_connected' AND ts < ${FROM} AND wallet_address IS NOT NULL
    ),
    first_connections AS (
      SELECT wallet_address, arg_min(session_id, ts) AS session_id
        FROM scoped
       WHERE type = 'wallet_connected' AND wallet_address IS NOT NULL
         AND wallet_address NOT IN (SELECT wallet_address FROM earlier_wallets)
       GROUP BY wallet_address
    ),
    new_wallets AS (
      SELECT session_id, count(*) AS wallets FROM first_connections GROUP BY session_id
    )
    SELECT GROUPING(value) = 1 AS is_total,
           value,
           coalesce(sum(new_wallets.wallets), 0)::DOUBLE AS new_wallets,
           sum(connects)::DOUBLE AS connects,
           sum(transactions)::DOUBLE AS transactions,
           count(*)::DOUBLE AS sessions,
           count(DISTINCT user_id)::DOUBLE AS users,
           count(*) FILTER (WHERE transactions > 0)::DOUBLE AS sessions_with_tx,
           count(DISTINCT user_id) FILTER (WHERE transactions > 0)::DOUBLE AS users_with_tx,
           count(*) FILTER (WHERE connects > 0)::DOUBLE AS sessions_with_connect,
           count(DISTINCT user_id) FILTER (WHERE connects > 0)::DOUBLE AS users_with_connect
      FROM sessions LEFT JOIN new_wallets USING (session_id)
     GROUP BY GROUPING SETS ((value), ())`;
  const rows = await rowsOf(connection, sql, { ...rangeParams(projectId, range), ...filter.params });
  return rows.map((row) => ({
    isTotal: Boolean(row.is_total),
    value: row.value == null ? null : String(row.value),
    newWallets: Number(row.new_wallets),
    connects: Number(row.connects),
    transactions: Number(row.transactions),
    sessions: Number(row.sessions),
    users: Number(row.users),
    sessionsWithTransaction: Number(row.sessions_with_tx),
    usersWithTransaction: Number(row.users_with_tx),
    sessionsWithConnect: Number(row.sessions_with_connect),
    usersWithConnect: Number(row.users_with_connect),
  }));
}
