import { type DuckDBConnection, listValue } from '@duckdb/node-api';
import type { AcquisitionFilters } from '@polyflow/contracts/acquisition';
import { FROM, IN_RANGE, type Params, rangeParams, rowsOf, TO } from '../../analytics/duckdb/sql.ts';
import type { TimeRange } from '../../analytics/time-range.ts';
import {
  inTransaction,
  SESSION_AGGREGATES,
  SESSION_SUMMARY_COLUMNS,
  SESSION_VALUE_SETS,
} from '../../events/duckdb/derived-tables.ts';

/** Each filter's events column. UTM columns hold the session's landing UTM on every event. */
const FILTER_COLUMNS: Record<keyof AcquisitionFilters, keyof typeof SESSION_VALUE_SETS> = {
  countries: 'country',
  terms: 'utm_term',
  sources: 'utm_source',
  mediums: 'utm_medium',
  campaigns: 'utm_campaign',
  contents: 'utm_content',
  browsers: 'browser',
  walletProviders: 'wallet_provider',
};

export type SessionFilter = {
  /** A condition on a `session_rows` row: true when the session passes every filter set. */
  condition: string;
  /** Named parameters `$filter_<key>`: the selected values, bound as lists. */
  params: Params;
};

/**
 * The sessions that pass every filter set: for each filter, one of the session's events in the range
 * carries one of the selected values, i.e. the session's set of that column's values meets the list.
 */
export function sessionFilter(filters: AcquisitionFilters): SessionFilter {
  const conditions: string[] = [];
  const params: Params = {};
  for (const [key, column] of Object.entries(FILTER_COLUMNS) as [keyof AcquisitionFilters, string][]) {
    const values = filters[key];
    if (!values || values.length === 0) continue;
    params[`filter_${key}`] = listValue([...values]);
    conditions.push(
      `list_has_any(${SESSION_VALUE_SETS[column as keyof typeof SESSION_VALUE_SETS]}, $filter_${key}::VARCHAR[])`,
    );
  }
  return { condition: conditions.length === 0 ? 'true' : conditions.join(' AND '), params };
}

/**
 * `session_rows`: one row per (session, user) with an event in [from, to), with the derived `sessions`
 * table's columns (ADR 005) over those events. A session wholly inside the range is its `sessions` row
 * as stored; one the range cuts through (events on both sides of an edge) is recomputed from its events
 * in the range with the very same aggregates, so every figure means "of the session's events in the range".
 * Those events lie in the range before $cut_until or after $cut_since (`cutSessionWindows`); the aggregates
 * are sets, flags, minima and maxima, so an event read through both windows counts once.
 */
export const SESSION_ROWS = `
    cut_sessions AS (
      SELECT session_id, user_id FROM sessions
       WHERE project_id = $project AND first_ts < ${FROM} AND last_ts >= ${FROM}
      UNION
      SELECT session_id, user_id FROM sessions
       WHERE project_id = $project AND first_ts < ${TO} AND last_ts >= ${TO}
    ),
    cut_events AS (
      SELECT * FROM events
       WHERE ${IN_RANGE} AND ts <= make_timestamp($cut_until::BIGINT * 1000)
      UNION ALL
      SELECT * FROM events
       WHERE ${IN_RANGE} AND ts >= make_timestamp($cut_since::BIGINT * 1000)
    ),
    session_rows AS (
      SELECT * EXCLUDE (project_id) FROM sessions
       WHERE project_id = $project AND first_ts >= ${FROM} AND last_ts < ${TO}
      UNION ALL BY NAME
      SELECT *, ${SESSION_SUMMARY_COLUMNS}
        FROM (SELECT session_id, user_id,
                     ${SESSION_AGGREGATES}
                FROM cut_events SEMI JOIN cut_sessions USING (session_id, user_id)
               GROUP BY session_id, user_id)
    )`;

/**
 * The parameters of SESSION_ROWS: where the in-range events of the sessions the range cuts through lie.
 * A session that began before `from` has them in [from, its last event]; one that ends at or after `to`,
 * in [its first event, to). Both windows are empty when no session crosses an edge, so the events are
 * then not read at all (zone maps on ts). Run it in the same transaction as the query that uses them.
 */
export async function cutSessionWindows(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
): Promise<Params> {
  const [row] = await rowsOf(
    connection,
    `SELECT epoch_ms(max(last_ts) FILTER (WHERE first_ts < ${FROM})) AS cut_until,
            epoch_ms(min(first_ts) FILTER (WHERE last_ts >= ${TO})) AS cut_since
       FROM sessions
      WHERE project_id = $project AND first_ts < ${TO} AND last_ts >= ${FROM}
        AND (first_ts < ${FROM} OR last_ts >= ${TO})`,
    rangeParams(projectId, range),
  );
  return {
    cut_until: BigInt(row?.cut_until == null ? range.fromMs - 1 : Number(row.cut_until)),
    cut_since: BigInt(row?.cut_since == null ? range.toMs : Number(row.cut_since)),
  };
}

/**
 * Runs an acquisition query over SESSION_ROWS: its windows and the query in one read transaction, so that
 * both see the same sessions and events.
 */
export function withSessionRows<T>(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
  query: (params: Params) => Promise<T>,
): Promise<T> {
  return inTransaction(connection, async () =>
    query({ ...rangeParams(projectId, range), ...(await cutSessionWindows(connection, projectId, range)) }),
  );
}
