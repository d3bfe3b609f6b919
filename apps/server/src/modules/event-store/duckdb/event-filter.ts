import { listValue } from '@duckdb/node-api';
import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { ANALYTICS_FILTER_COLUMNS, TX_STAGE_WINDOW_MS } from '../domain.ts';
import { FROM, IN_RANGE, type Params, REFERRER_DOMAIN, TO } from './sql.ts';
import { IS_SHORT } from './transaction-summaries.ts';

/**
 * The Analytics filters on DuckDB (docs/analytics.md, "Filters"; ADR 074). A filtered question reads the
 * events of the sessions that match: `filtered_sessions` holds the session keys (`events.session_key`,
 * ADR 093: grouping by a number, not by hashing the text ids) of which, for every list set, an event in
 * [from, to) carries one of its values (for `referrers`, whose first page view in the range came from one
 * of the domains), found from the range's events; the transactions of the passing sessions are kept by
 * their request's session key in `transaction_summaries` (ADR 100).
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

/** The filter for `filters` over the range of the question's `$from` and `$to` (NO_FILTER without lists). */
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
    const type = key === 'chains' ? 'BIGINT' : 'VARCHAR';
    params[`filter_${key}`] = listValue(
      values.map((value) => (typeof value === 'number' ? BigInt(value) : value)),
    );
    const list = `$filter_${key}::${type}[]`;
    conditions.push(
      key === 'referrers'
        ? `coalesce(list_contains(${list}, arg_min(coalesce(${REFERRER_DOMAIN}, ''), (ts, id)) FILTER (WHERE type = 'page_view')), false)`
        : `coalesce(bool_or(list_contains(${list}, ${column})), false)`,
    );
  }
  if (conditions.length === 0) return NO_FILTER;
  const cte = `${name} AS (
       SELECT session_key FROM events
        WHERE ${inRange}
        GROUP BY session_key
       HAVING ${conditions.join('\n          AND ')}
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

/**
 * `filtered_transactions` (after `filtered_sessions`): the transactions whose request (first stage, from
 * one stage window before `from` up to `to`) was logged in a passing session, for the failed-transaction
 * cost's receipts and refusals logged in [from, to).
 */
export const FILTERED_TRANSACTIONS_CTE = `filtered_transactions AS (
       SELECT tx_id FROM events
        WHERE project_id = $project AND type = 'tx' AND tx_id IS NOT NULL
          AND ts >= make_timestamp(($from::BIGINT - ${TX_STAGE_WINDOW_MS}) * 1000) AND ts < ${TO}
        GROUP BY tx_id
       HAVING arg_min(session_key, (ts, id)) ${IN_FILTERED}
     )`;
