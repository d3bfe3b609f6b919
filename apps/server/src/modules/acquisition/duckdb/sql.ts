import { listValue } from '@duckdb/node-api';
import type { AcquisitionFilters } from '@polyflow/contracts/acquisition';
import type { Params } from '../../analytics/duckdb/sql.ts';

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
  /** The columns the filters read (besides session_id): a scan reads only what it needs. */
  columns: string[];
  /**
   * `matching(session_id)`: the sessions of `source` that pass every filter; null when no filter is set
   * (then every session counts).
   */
  cte(source: string): string | null;
  /** Named parameters `$filter_<key>`: the selected values, bound as lists. */
  params: Params;
};

/**
 * The sessions that pass every filter set: for each filter, one of the session's events in the range
 * carries one of the selected values.
 */
export function sessionFilter(filters: AcquisitionFilters): SessionFilter {
  const conditions: string[] = [];
  const columns = new Set<string>();
  const params: Params = {};
  for (const [key, column] of Object.entries(FILTER_COLUMNS) as [keyof AcquisitionFilters, string][]) {
    const values = filters[key];
    if (!values || values.length === 0) continue;
    params[`filter_${key}`] = listValue([...values]);
    columns.add(column);
    conditions.push(`bool_or(${column} = ANY($filter_${key}))`);
  }
  return {
    columns: [...columns],
    params,
    cte: (source) =>
      conditions.length === 0
        ? null
        : `matching AS (SELECT session_id FROM ${source} GROUP BY session_id HAVING ${conditions.join(' AND ')})`,
  };
}

/** `AND session_id IN matching` when filtered. */
export const inMatching = (filter: SessionFilter): string =>
  filter.columns.length > 0 ? 'AND session_id IN (SELECT session_id FROM matching)' : '';
