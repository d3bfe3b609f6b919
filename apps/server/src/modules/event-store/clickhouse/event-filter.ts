import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { ANALYTICS_FILTER_COLUMNS, TX_STAGE_WINDOW_MS } from '../domain.ts';
import type { Params } from './client.ts';
import { IN_RANGE, REFERRER_DOMAIN, TO } from './sql.ts';

/**
 * The Analytics filters on ClickHouse (docs/analytics.md, "Filters"; ADR 074), as on DuckDB
 * (duckdb/event-filter.ts): `filtered_sessions` holds the session keys (`events.session_key`, ADR 093:
 * grouping by a number, not by hashing the text ids) of which, for every list set, an event in [from, to)
 * carries one of its values (for `referrers`, whose first page view in the range came from one of the
 * domains); a filtered question reads the events of those sessions. The sessions are read without FINAL:
 * an event stored twice changes no maximum and no first page view.
 */
export type EventFilter = {
  /** The CTE `filtered_sessions` (to put after WITH, before the question's own), or '' without filters. */
  cte: string;
  /** ' AND <an event of a matching session>' for a WHERE on `events`, or ''. */
  events: string;
  /** A transaction whose request's session matches, for transactionsCte's HAVING, or ''. */
  transactions: string;
  /** `filter_<key>`: each list, as Array(String) (chain ids as decimal text). */
  params: Params;
};

export const NO_FILTER: EventFilter = { cte: '', events: '', transactions: '', params: {} };

const IN_FILTERED = 'IN (SELECT session_key FROM filtered_sessions)';

/** The filter for `filters` over the range of the question's `from` and `to` (NO_FILTER without lists). */
export function eventFilter(filters: AnalyticsFilters | undefined): EventFilter {
  return sessionFilter(filters, 'filtered_sessions', IN_RANGE);
}

/**
 * The same filter as a CTE of another name over another range (`inRange`, a condition on `events` that
 * names the project): for a question that matches the sessions of two periods in one query.
 */
export function sessionFilter(
  filters: AnalyticsFilters | undefined,
  name: string,
  inRange: string,
): EventFilter {
  const conditions: string[] = [];
  const params: Params = {};
  for (const [key, column] of Object.entries(ANALYTICS_FILTER_COLUMNS) as [
    keyof AnalyticsFilters,
    string,
  ][]) {
    const values = filters?.[key];
    if (!values || values.length === 0) continue;
    params[`filter_${key}`] = values.map(String);
    const list = `{filter_${key}:Array(String)}`;
    conditions.push(
      key === 'referrers'
        ? `has(${list}, argMinIf(${REFERRER_DOMAIN}, (ts, id), type = 'page_view'))`
        : `max(has(${list}, ${key === 'chains' ? `toString(${column})` : column}))`,
    );
  }
  if (conditions.length === 0) return NO_FILTER;
  return {
    cte: `${name} AS (
       SELECT session_key FROM events
        WHERE ${inRange}
        GROUP BY session_key
       HAVING ${conditions.join('\n          AND ')}
     )`,
    events: ` AND session_key IN (SELECT session_key FROM ${name})`,
    transactions: `argMin(session_key, ts) IN (SELECT session_key FROM ${name})`,
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
 * [from, to), for the Wallets cards (docs/wallets.md, "With the Analytics filters"); without FINAL (a
 * distinct set).
 */
export const FILTERED_WALLETS_CTE = `filtered_wallets AS (
       SELECT DISTINCT assumeNotNull(wallet_address) AS wallet FROM events
        WHERE ${IN_RANGE} AND wallet_address IS NOT NULL AND session_key ${IN_FILTERED}
     )`;

/**
 * `filtered_transactions` (after `filtered_sessions`): the transactions whose request (first stage, from
 * one stage window before `from` up to `to`) was logged in a passing session; without FINAL (an argMin).
 */
export const FILTERED_TRANSACTIONS_CTE = `filtered_transactions AS (
       SELECT assumeNotNull(tx_id) AS tx_id FROM events
        WHERE project_id = {project:String} AND type = 'tx' AND tx_id IS NOT NULL
          AND ts >= fromUnixTimestamp64Milli({from:Int64} - ${TX_STAGE_WINDOW_MS}, 'UTC') AND ts < ${TO}
        GROUP BY tx_id
       HAVING argMin(session_key, ts) ${IN_FILTERED}
     )`;
