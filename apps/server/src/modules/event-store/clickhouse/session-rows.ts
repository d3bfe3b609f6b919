import type { AcquisitionFilters } from '@polyflow/contracts/acquisition';
import type { Params } from './client.ts';
import { EVENTS, IN_RANGE, SUBMITTED_STAGES } from './sql.ts';

/**
 * The per-session figures the funnel and the attribution table read (docs/acquisition-and-incidents.md),
 * as aggregates over a session's events in the range. The DuckDB adapter keeps them in its derived
 * `sessions` table and recomputes the sessions a range cuts through (ADR 008); ClickHouse groups the
 * range's events by session directly, which gives the same "of the session's events in the range".
 */
const IS_SUBMITTED = `type = 'tx' AND tx_id IS NOT NULL AND ifNull(tx_stage IN ${SUBMITTED_STAGES}, 0)`;

/** Landing UTM of a session, by the attribution dimension: the SDK repeats it on every event; blank is absent. */
const landing = (column: string) => `min(nullIf(trimBoth(${column}), ''))`;

export const SESSION_COLUMNS = {
  has_wallet: `max(type IN ('wallet_detected', 'wallet_connected') OR wallet_provider IS NOT NULL)`,
  has_connected: `max(type = 'wallet_connected')`,
  // A signature event without a stage is not signed.
  has_signed: `max(type = 'signature' AND ifNull(sig_stage = 'signed', 0))`,
  /** The session's submitted transactions (distinct ids). */
  submitted_txs: `groupUniqArrayIf(assumeNotNull(tx_id), ${IS_SUBMITTED})`,
  submitted_count: `uniqExactIf(tx_id, ${IS_SUBMITTED})`,
  connects: `uniqExactIf(id, type = 'wallet_connected')`,
  landing_campaign: landing('utm_campaign'),
  landing_source: landing('utm_source'),
  landing_medium: landing('utm_medium'),
  landing_content: landing('utm_content'),
  landing_term: landing('utm_term'),
} as const;
export type SessionColumn = keyof typeof SESSION_COLUMNS;

/** Each filter's events column. UTM columns hold the session's landing UTM on every event. */
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

/**
 * `session_rows`: one row per (session, user) with an event in [from, to) that passes every filter set
 * (for each filter, one of its events in the range carries one of the selected values), with
 * `session_id`, `user_id` and the asked columns. Parameters: `project`, `from`, `to` and the filters'.
 */
export function sessionRowsCte(
  columns: readonly SessionColumn[],
  filters: AcquisitionFilters,
): { sql: string; params: Params } {
  const params: Params = {};
  const conditions: string[] = [];
  for (const [key, column] of Object.entries(FILTER_COLUMNS) as [keyof AcquisitionFilters, string][]) {
    const values = filters[key];
    if (!values || values.length === 0) continue;
    params[`filter_${key}`] = [...values];
    conditions.push(`countIf(has({filter_${key}:Array(String)}, ${column})) > 0`);
  }
  const having = conditions.length === 0 ? '' : `\n       HAVING ${conditions.join(' AND ')}`;
  const selected = columns
    .map((column) => `${SESSION_COLUMNS[column]} AS ${column}`)
    .join(',\n             ');
  return {
    sql: `session_rows AS (
      SELECT session_id, user_id,
             ${selected}
        FROM ${EVENTS}
       WHERE ${IN_RANGE}
       GROUP BY session_id, user_id${having}
    )`,
    params,
  };
}
