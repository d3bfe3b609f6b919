import type { AnalyticsFilterKey } from '@polyflow/contracts/analytics';
import type { DerivedTable } from './derived-table.ts';
import { keyOf } from './schema.ts';

/**
 * The events columns `session_filter_values` indexes, by the Analytics filter list that matches them
 * (docs/analytics.md, "Filters"): those an event carries one value of. `pages` (many paths per session)
 * and `referrers` (a session's landing, not an event's value) are not indexed: a filter with one of them
 * finds its sessions from the events (event-filter.ts).
 */
export const INDEXED_FILTER_COLUMNS: Partial<Record<AnalyticsFilterKey, string>> = {
  countries: 'country',
  browsers: 'browser',
  oses: 'os',
  devices: 'device',
  walletProviders: 'wallet_provider',
  chains: 'chain_id',
  sources: 'utm_source',
  mediums: 'utm_medium',
  campaigns: 'utm_campaign',
};

const pairs = Object.values(INDEXED_FILTER_COLUMNS)
  .map((column) => `{dimension: '${column}', value: ${column}::VARCHAR}`)
  .join(', ');

/**
 * `session_filter_values` (ADR 100): which sessions (`events.session_key`, ADR 093) carried which value of
 * an indexed column in which UTC quarter-hour. A filtered question finds the sessions that pass a list
 * from the rows of its values over the range's whole quarter-hours (sorted by column and value, the rows
 * of one value are read alone), and from the events of the range's partial quarter-hours at its ends (none
 * for a range on quarter-hours: every zone's midnight is one), instead of grouping the range's events.
 * A chain id is stored as its decimal text.
 */
export const SESSION_FILTER_VALUES: DerivedTable = {
  name: 'session_filter_values',
  definedIn: 15,
  order: 'project_id, dimension, value, quarter',
  // The key computed once per loaded event (the loaded rows have the session's text id only), then kept
  // distinct by it: one row per key, whatever ids share one (ADR 093's bound).
  rows: `SELECT DISTINCT project_id, pair.dimension AS dimension, pair.value AS value, quarter, session_key
  FROM (SELECT project_id, ${keyOf('session_id')} AS session_key, time_bucket(INTERVAL 15 MINUTE, ts) AS quarter,
               unnest([${pairs}]) AS pair
          FROM {source})
 WHERE pair.value IS NOT NULL`,
  onConflict: ['ON CONFLICT DO NOTHING'],
};
