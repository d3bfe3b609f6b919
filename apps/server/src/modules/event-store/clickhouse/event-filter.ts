import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { ANALYTICS_FILTER_COLUMNS } from '../domain.ts';
import type { Params } from './client.ts';
import { IN_RANGE, REFERRER_DOMAIN } from './sql.ts';

/**
 * The Analytics filters on ClickHouse (docs/analytics.md, "Filters"; ADR 074), as on DuckDB
 * (duckdb/event-filter.ts): `filtered_sessions` holds the session ids of which, for every list set, an
 * event in [from, to) carries one of its values (for `referrers`, whose first page view in the range came
 * from one of the domains); a filtered question reads the events of those sessions. The session ids are
 * read without FINAL: an event stored twice changes no maximum and no first page view.
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

const IN_FILTERED = 'IN (SELECT session_id FROM filtered_sessions)';

/** The filter for `filters` over the range of the question's `from` and `to` (NO_FILTER without lists). */
export function eventFilter(filters: AnalyticsFilters | undefined): EventFilter {
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
    cte: `filtered_sessions AS (
       SELECT session_id FROM events
        WHERE ${IN_RANGE}
        GROUP BY session_id
       HAVING ${conditions.join('\n          AND ')}
     )`,
    events: ` AND session_id ${IN_FILTERED}`,
    transactions: `argMin(session_id, ts) ${IN_FILTERED}`,
    params,
  };
}

/** `WITH` and the CTEs given, the filter's first; '' when none is given. */
export const withCtes = (...ctes: string[]) => {
  const present = ctes.filter(Boolean);
  return present.length === 0 ? '' : `WITH ${present.join(',\n     ')}`;
};
