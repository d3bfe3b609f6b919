import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../reading/time-range.ts';
import { ANALYTICS_FILTER_COLUMNS, TX_STAGE_WINDOW_MS } from '../domain.ts';
import { numberOrNull } from '../rows.ts';
import { listValue } from './binding.ts';
import { KEYED_SESSION_SETS } from './keyed-sessions.ts';
import {
  type Connection,
  FROM,
  IN_RANGE,
  type Params,
  REFERRER_DOMAIN,
  rangeParams,
  rowsOf,
  TO,
} from './sql.ts';
import { IS_SHORT } from './transaction-summaries.ts';

/**
 * The Analytics filters on DuckDB (docs/analytics.md, "Filters"; ADR 074). A filtered question reads the
 * events of the sessions that match: `filtered_sessions` holds the session keys (`events.session_key`,
 * ADR 093: grouping by a number, not by hashing the text ids) of which, for every list set, an event in
 * [from, to) carries one of its values (for `referrers`, whose first page view in the range came from one
 * of the domains). A session wholly inside the range is tested on its `keyed_sessions` row (ADR 109), one
 * the range cuts through on its events in the range; the transactions of the passing sessions are kept
 * by their request's session key in `transaction_summaries` (ADR 100).
 */
export type EventFilter = {
  /** The CTE `filtered_sessions` (to put after WITH, before the question's own), or '' without filters. */
  cte: string;
  /** ' AND <an event of a matching session>' for a WHERE on `events`, or ''. */
  events: string;
  /** A transaction whose request's session matches, for transactionsCte's HAVING, or ''. */
  transactions: string;
  /**
   * ' AND <a transaction_summaries row whose request's session matches>' (its stored `session_key`, ADR
   * 100), or ''.
   */
  summaries: string;
  /**
   * A condition on the stages for transactionsCte's `only`, or '': the transactions that may pass, read from
   * `transaction_summaries` (ADR 100) so that only their stages are grouped. Those requested in [from, to)
   * in a passing session whose stages lie less than the stage window apart, and every longer one the scan
   * around the range may see (`transactions` decides those as before).
   */
  requests: string;
  /** `$filter_<key>`: each list, bound as a list. */
  params: Params;
};

export const NO_FILTER: EventFilter = {
  cte: '',
  events: '',
  transactions: '',
  summaries: '',
  requests: '',
  params: {},
};

const IN_FILTERED = 'IN (SELECT session_key FROM filtered_sessions)';

const CutRow = z.object({
  keys: z.array(z.bigint()).nullable(),
  cut_until: numberOrNull,
  cut_since: numberOrNull,
});

/** Where a filter's sessions are looked for: the range's values and their SQL in the question's query. */
export type FilterPeriod = {
  range: TimeRange;
  /** The range's bounds as SQL timestamps of the question's parameters (FROM and TO by default). */
  from: string;
  to: string;
};

/**
 * The sessions a range cuts through (events on both sides of an edge), from `keyed_sessions` (ADR 109),
 * and where their in-range events lie: [from, cut_until] for those begun before `from`, [cut_since, to)
 * for those going on at `to`. Found before the question so that its query reads those events through
 * constant bounds the zone maps on `ts` can use (none in the common case).
 */
async function cutSessions(connection: Connection, projectId: string, range: TimeRange) {
  const [row] = await rowsOf(
    connection,
    `SELECT list_distinct(list(session_key)) AS keys,
            epoch_ms(max(last_ts) FILTER (WHERE first_ts < ${FROM})) AS cut_until,
            epoch_ms(min(first_ts) FILTER (WHERE last_ts >= ${TO})) AS cut_since
       FROM (SELECT session_key, first_ts, last_ts FROM keyed_sessions
              WHERE project_id = $project AND first_ts < ${FROM} AND last_ts >= ${FROM}
             UNION ALL
             SELECT session_key, first_ts, last_ts FROM keyed_sessions
              WHERE project_id = $project AND first_ts < ${TO} AND last_ts >= ${TO})`,
    rangeParams(projectId, range),
    CutRow,
  );
  return { keys: row?.keys ?? [], cutUntilMs: row?.cut_until ?? null, cutSinceMs: row?.cut_since ?? null };
}

/** The filter for `filters` over the question's range (`$from`, `$to`; NO_FILTER without lists). */
export function eventFilter(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  filters: AnalyticsFilters | undefined,
): Promise<EventFilter> {
  return sessionFilter(connection, projectId, filters, 'filtered_sessions', { range, from: FROM, to: TO });
}

/**
 * The same filter as a CTE of another name over another period: for a question that matches the sessions
 * of two periods in one query. A session wholly inside the period passes when its `keyed_sessions` row
 * does (its sets are those of its events, all in the period); one the period cuts through is grouped
 * from its events in the period, as every session was before (ADR 093).
 */
export async function sessionFilter(
  connection: Connection,
  projectId: string,
  filters: AnalyticsFilters | undefined,
  name: string,
  period: FilterPeriod,
): Promise<EventFilter> {
  const ofSessions: string[] = [];
  const ofEvents: string[] = [];
  const params: Params = {};
  for (const [key, column] of Object.entries(ANALYTICS_FILTER_COLUMNS) as [
    keyof AnalyticsFilters,
    string,
  ][]) {
    const values = filters?.[key];
    if (!values || values.length === 0) continue;
    const type = key === 'chains' ? 'BIGINT' : 'VARCHAR';
    params[`filter_${key}`] = listValue(
      values.map((value) => (typeof value === 'number' ? BigInt(value) : value)),
    );
    const list = `$filter_${key}::${type}[]`;
    if (key === 'referrers') {
      ofSessions.push(`coalesce(list_contains(${list}, landing_referrer), false)`);
      ofEvents.push(
        `coalesce(list_contains(${list}, arg_min(coalesce(${REFERRER_DOMAIN}, ''), (ts, id)) FILTER (WHERE type = 'page_view')), false)`,
      );
    } else {
      // A lambda over the (short) set: list_has_any costs twice as much here.
      ofSessions.push(
        `coalesce(list_bool_or(list_transform(${KEYED_SESSION_SETS[key]}, value -> list_contains(${list}, value))), false)`,
      );
      ofEvents.push(`coalesce(bool_or(list_contains(${list}, ${column})), false)`);
    }
  }
  if (ofSessions.length === 0) return NO_FILTER;
  const { from, to } = period;
  const cut = await cutSessions(connection, projectId, period.range);
  const windows: string[] = [];
  if (cut.keys.length > 0) {
    params[`${name}_cut_keys`] = listValue(cut.keys);
    const inRange = `project_id = $project AND ts >= ${from} AND ts < ${to} AND list_contains($${name}_cut_keys::UBIGINT[], session_key)`;
    if (cut.cutUntilMs !== null) {
      params[`${name}_cut_until`] = BigInt(cut.cutUntilMs);
      windows.push(
        `SELECT * FROM events WHERE ${inRange} AND ts <= make_timestamp($${name}_cut_until::BIGINT * 1000)`,
      );
    }
    if (cut.cutSinceMs !== null) {
      params[`${name}_cut_since`] = BigInt(cut.cutSinceMs);
      windows.push(
        `SELECT * FROM events WHERE ${inRange} AND ts >= make_timestamp($${name}_cut_since::BIGINT * 1000)`,
      );
    }
  }
  // An event read through both windows (a session across both edges) counts once: the conditions are
  // "any" and a first by (time, id).
  const cutPart =
    windows.length === 0
      ? ''
      : `
       UNION ALL
       SELECT session_key FROM (${windows.join('\n         UNION ALL\n         ')})
        GROUP BY session_key
       HAVING ${ofEvents.join('\n          AND ')}`;
  const cte = `${name} AS (
       SELECT session_key FROM keyed_sessions
        WHERE project_id = $project AND last_ts >= ${from} AND first_ts >= ${from} AND last_ts < ${to}
          AND ${ofSessions.join('\n          AND ')}${cutPart}
     )`;
  return {
    cte,
    events: ` AND session_key IN (SELECT session_key FROM ${name})`,
    // The request: the first stage by (time, id), as transaction_summaries keeps it.
    transactions: `arg_min(session_key, (ts, id)) IN (SELECT session_key FROM ${name})`,
    summaries: ` AND session_key IN (SELECT session_key FROM ${name})`,
    requests: `tx_id IN (SELECT tx_id FROM transaction_summaries
        WHERE project_id = $project
          AND requested_at < make_timestamp(($to::BIGINT + ${TX_STAGE_WINDOW_MS}) * 1000)
          AND last_ts >= make_timestamp(($from::BIGINT - ${TX_STAGE_WINDOW_MS}) * 1000)
          AND CASE WHEN ${IS_SHORT}
                THEN requested_at >= ${FROM} AND requested_at < ${TO} AND session_key IN (SELECT session_key FROM ${name})
                ELSE true END)`,
    params,
  };
}

/** `WITH` and the CTEs given, the filter's first; '' when none is given. */
export const withCtes = (...ctes: string[]) => {
  const present = ctes.filter(Boolean);
  return present.length === 0 ? '' : `WITH ${present.join(',\n     ')}`;
};

/**
 * `filtered_wallets` (after `filtered_sessions`): the wallets an event of a passing session carried in
 * [from, to), for the Wallets cards (docs/wallets.md, "With the Analytics filters").
 */
export const FILTERED_WALLETS_CTE = `filtered_wallets AS (
       SELECT DISTINCT wallet_address AS wallet FROM events
        WHERE ${IN_RANGE} AND wallet_address IS NOT NULL AND session_key ${IN_FILTERED}
     )`;
