import type { DuckDBConnection } from '@duckdb/node-api';
import type { AcquisitionFilters } from '@polyflow/contracts/acquisition';
import { z } from 'zod';
import type { TimeRange } from '../../../reading/time-range.ts';
import { numberOrNull } from '../rows.ts';
import { listValue } from './binding.ts';
import { inTransaction } from './derived-tables.ts';
import { SESSION_VALUE_SETS, type SessionColumn, sessionColumnsOverEvents } from './sessions.ts';
import { FROM, IN_RANGE, type Params, rangeParams, rowsOf, TO } from './sql.ts';

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
  /** The `session_rows` columns the condition reads. */
  columns: SessionColumn[];
};

/**
 * The sessions that pass every filter set: for each filter, one of the session's events in the range
 * carries one of the selected values, i.e. the session's set of that column's values meets the list.
 */
export function sessionFilter(filters: AcquisitionFilters): SessionFilter {
  const conditions: string[] = [];
  const params: Params = {};
  const columns: SessionColumn[] = [];
  for (const [key, column] of Object.entries(FILTER_COLUMNS) as [keyof AcquisitionFilters, string][]) {
    const values = filters[key];
    if (!values || values.length === 0) continue;
    const set = SESSION_VALUE_SETS[column as keyof typeof SESSION_VALUE_SETS];
    params[`filter_${key}`] = listValue([...values]);
    columns.push(set);
    conditions.push(`list_has_any(${set}, $filter_${key}::VARCHAR[])`);
  }
  return { condition: conditions.length === 0 ? 'true' : conditions.join(' AND '), params, columns };
}

/**
 * The sessions a range cuts through (events on both sides of an edge), found before the query that
 * reads them, and where their in-range events lie: a session that began before `from` has them in
 * [from, its last event] (`cut_until`), one that ends at or after `to` in [its first event, to)
 * (`cut_since`). Knowing them up front keeps the common case (no such session) free of the events table,
 * and bounds the scan with constants that the zone maps on `ts` can use.
 */
type CutSessions = {
  keys: [sessionId: string, userId: string][];
  cutUntilMs: number;
  cutSinceMs: number;
  /** Whether two users active in the range share a `user_key` (derived-tables.ts userKeyOf); false when not checked. */
  keysCollide: boolean;
};

const CutSessionsRow = z.object({
  keys: z.array(z.tuple([z.string(), z.string()])).nullable(),
  cut_until: numberOrNull,
  cut_since: numberOrNull,
  keys_collide: z.boolean().nullable().optional(),
});

async function cutSessions(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
  checkKeys: boolean,
): Promise<CutSessions> {
  // Two narrow probes: one per edge. A session across both edges is listed twice, which the id lookups
  // below do not mind. When asked, whether the users whose life meets the range (all those with a session
  // in it) have as many keys as ids: a few thousand numbers to count, read from `keyed_user_lives`.
  const [row] = await rowsOf(
    connection,
    `SELECT list([session_id, user_id]) AS keys,
            epoch_ms(max(last_ts) FILTER (WHERE first_ts < ${FROM})) AS cut_until,
            epoch_ms(min(first_ts) FILTER (WHERE last_ts >= ${TO})) AS cut_since${
              checkKeys
                ? `,
            (SELECT count(*) <> count(DISTINCT user_key) FROM keyed_user_lives
              WHERE project_id = $project AND first_day <= ${TO}::DATE AND last_day >= ${FROM}::DATE) AS keys_collide`
                : ''
            }
       FROM (SELECT session_id, user_id, first_ts, last_ts FROM sessions
              WHERE project_id = $project AND first_ts < ${FROM} AND last_ts >= ${FROM}
             UNION ALL
             SELECT session_id, user_id, first_ts, last_ts FROM sessions
              WHERE project_id = $project AND first_ts < ${TO} AND last_ts >= ${TO})`,
    rangeParams(projectId, range),
    CutSessionsRow,
  );
  return {
    keys: (row?.keys ?? []).map(([id, user]) => [id, user]),
    cutUntilMs: row?.cut_until ?? range.fromMs - 1,
    cutSinceMs: row?.cut_since ?? range.toMs,
    keysCollide: checkKeys && row?.keys_collide !== false,
  };
}

/**
 * `session_rows`: one row per (session, user) with an event in [from, to), with `session_id`, `user_id`
 * and the asked `sessions` columns (ADR 005), over those events. A session wholly inside the range is
 * its `sessions` row as stored; one the range cuts through is recomputed from its events in the range
 * with the very same aggregates, so every figure means "of the session's events in the range". Those
 * events are read through two windows (one per edge); the aggregates are sets, flags, minima and maxima,
 * so an event read through both counts once.
 */
function sessionRowsCte(
  columns: readonly SessionColumn[],
  cut: CutSessions,
): { sql: string; params: Params } {
  const stored = `SELECT session_id, user_id, ${columns.join(', ')} FROM sessions
       WHERE project_id = $project AND first_ts >= ${FROM} AND last_ts < ${TO}`;
  if (cut.keys.length === 0) return { sql: `session_rows AS (\n      ${stored}\n    )`, params: {} };
  const { aggregates, projection } = sessionColumnsOverEvents(columns);
  // The cut sessions' ids filter the scan (a list lookup costs far less here than a semi join); the
  // (session, user) pairs, the session rows' key, are then checked group by group.
  const sql = `
    cut_events AS (
      SELECT * FROM events
       WHERE ${IN_RANGE} AND ts <= make_timestamp($cut_until::BIGINT * 1000)
         AND list_contains($cut_session_ids::VARCHAR[], session_id)
      UNION ALL
      SELECT * FROM events
       WHERE ${IN_RANGE} AND ts >= make_timestamp($cut_since::BIGINT * 1000)
         AND list_contains($cut_session_ids::VARCHAR[], session_id)
    ),
    session_rows AS (
      ${stored}
      UNION ALL
      SELECT session_id, user_id, ${projection}
        FROM (SELECT session_id, user_id,
                     ${aggregates}
                FROM cut_events
               GROUP BY session_id, user_id
              HAVING list_contains($cut_sessions::VARCHAR[][], [session_id, user_id]))
    )`;
  return {
    sql,
    params: {
      cut_until: BigInt(cut.cutUntilMs),
      cut_since: BigInt(cut.cutSinceMs),
      cut_session_ids: listValue(cut.keys.map(([id]) => id)),
      cut_sessions: listValue(cut.keys.map((key) => listValue(key))),
    },
  };
}

/**
 * The `session_rows` column that tells users apart: with `byUserKey`, `user_key`, a number, unless two
 * users active in the range share one; otherwise, or then, `user_id`. Grouping 226,000 sessions by the
 * number instead of the string is what took attribution and the filter options down at 10 M events; the
 * funnel gains nothing from it that its check would not cost back (ADR 040).
 */
export type UserColumn = 'user_key' | 'user_id';

/**
 * Runs an acquisition query over `session_rows` with the asked columns: `query` gets the CTE's text (to
 * put after WITH), every parameter it needs and the column to group users by. The cut sessions and the query run in one read
 * transaction, so that both see the same sessions and events.
 */
export function withSessionRows<T>(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
  columns: readonly SessionColumn[],
  query: (sessionRows: string, params: Params, user: UserColumn) => Promise<T>,
  { byUserKey = false } = {},
): Promise<T> {
  return inTransaction(connection, async () => {
    const cut = await cutSessions(connection, projectId, range, byUserKey);
    const cte = sessionRowsCte(byUserKey ? ['user_key', ...columns] : columns, cut);
    return query(
      cte.sql,
      { ...rangeParams(projectId, range), ...cte.params },
      byUserKey && !cut.keysCollide ? 'user_key' : 'user_id',
    );
  });
}
