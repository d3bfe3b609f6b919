import { listValue } from '@duckdb/node-api';
import type { AcquisitionFilters } from '@polyflow/contracts/acquisition';
import { IN_RANGE, type Params } from '../../analytics/duckdb/sql.ts';

/** Each filter's column in `events`. UTM columns hold the session's landing UTM on every event. */
const FILTER_COLUMNS: Record<keyof AcquisitionFilters, string> = {
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
  /** A CTE `matching(session_id)`, or null when no filter is set (then every session counts). */
  cte: string | null;
  /** Named parameters `$filter_<key>`: the selected values, bound as lists. */
  params: Params;
};

/**
 * The sessions that pass every filter set: for each filter, one of the session's events in [from, to)
 * carries one of the selected values. Uses the analytics parameters $project, $from, $to.
 */
export function sessionFilter(filters: AcquisitionFilters): SessionFilter {
  const conditions: string[] = [];
  const params: Params = {};
  for (const [key, column] of Object.entries(FILTER_COLUMNS) as [keyof AcquisitionFilters, string][]) {
    const values = filters[key];
    if (!values || values.length === 0) continue;
    params[`filter_${key}`] = listValue([...values]);
    conditions.push(`bool_or(${column} = ANY($filter_${key}))`);
  }
  if (conditions.length === 0) return { cte: null, params };
  const cte = `matching AS (
    SELECT session_id FROM events
     WHERE ${IN_RANGE}
     GROUP BY session_id
    HAVING ${conditions.join(' AND ')}
  )`;
  return { cte, params };
}

/** `AND session_id IN matching` when filtered. */
export const inMatching = (filter: SessionFilter): string =>
  filter.cte ? 'AND session_id IN (SELECT session_id FROM matching)' : '';
/** `WITH matching AS (…),` prefix (or `WITH`) for a query that continues with more CTEs. */
export const withMatching = (filter: SessionFilter): string => (filter.cte ? `WITH ${filter.cte},` : 'WITH');
