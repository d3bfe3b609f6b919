import { ANALYTICS_FILTER_COLUMNS } from '../domain.ts';
import type { DerivedTable } from './derived-table.ts';
import { keyOf } from './schema.ts';
import { REFERRER_DOMAIN } from './sql.ts';

/**
 * The set columns of `keyed_sessions`, by the Analytics filter list whose events column they hold the
 * values of (docs/analytics.md, "Filters"); `referrers` is the landing page view's domain instead.
 */
export const KEYED_SESSION_SETS = {
  countries: 'countries',
  browsers: 'browsers',
  oses: 'oses',
  devices: 'devices',
  walletProviders: 'wallet_providers',
  chains: 'chains',
  sources: 'utm_sources',
  mediums: 'utm_mediums',
  campaigns: 'utm_campaigns',
  pages: 'pages',
} as const;

/** Distinct non-null values of an events column, sorted: the same set however the rows were loaded. */
const valueSet = (column: string, type: string) =>
  `list_sort(coalesce(list_distinct(list(${column}) FILTER (WHERE ${column} IS NOT NULL)), []::${type}[]))`;
const union = (column: string) => `list_sort(list_distinct(list_concat(${column}, excluded.${column})))`;
const gains = (column: string) => `NOT list_has_all(${column}, excluded.${column})`;

const SETS = Object.entries(KEYED_SESSION_SETS).map(([list, name]) => {
  const column = ANALYTICS_FILTER_COLUMNS[list as keyof typeof KEYED_SESSION_SETS];
  return { name, sql: valueSet(column, list === 'chains' ? 'BIGINT' : 'VARCHAR') };
});

/** The landing page view (the first by (time, id)) kept unless a load brings an earlier one. */
const EARLIER_LANDING = `(excluded.landing_ts IS NOT NULL AND (landing_ts IS NULL OR (excluded.landing_ts, excluded.landing_id) < (landing_ts, landing_id)))`;

/**
 * `keyed_sessions` (ADR 109): one row per (project, session key) (`events.session_key`, ADR 093), the
 * session's first and last event time and, for the Analytics filters, the set of each filtered column's
 * values over its events and the domain its first page view came from (`landing_referrer`, '' for
 * direct, null without a page view). A session wholly inside a question's range passes the filters
 * exactly when its row does, so a filtered question reads one row per session instead of the range's
 * events (event-filter.ts); the sessions the range cuts through are asked of their events.
 */
export const KEYED_SESSIONS: DerivedTable = {
  name: 'keyed_sessions',
  definedIn: 16,
  order: 'project_id, last_ts',
  // Grouped by the key computed from the id, as `events.session_key` is: a load's rows have no key yet.
  rows: `SELECT project_id, ${keyOf('session_id')} AS session_key, min(ts) AS first_ts, max(ts) AS last_ts,
       ${SETS.map(({ name, sql }) => `${sql} AS ${name}`).join(',\n       ')},
       min(ts) FILTER (WHERE type = 'page_view') AS landing_ts,
       arg_min(id, (ts, id)) FILTER (WHERE type = 'page_view') AS landing_id,
       arg_min(coalesce(${REFERRER_DOMAIN}, ''), (ts, id)) FILTER (WHERE type = 'page_view') AS landing_referrer
  FROM {source}
 GROUP BY 1, 2`,
  onConflict: [
    `ON CONFLICT (project_id, session_key) DO UPDATE SET
  first_ts = least(first_ts, excluded.first_ts),
  last_ts = greatest(last_ts, excluded.last_ts),
  ${SETS.map(({ name }) => `${name} = ${union(name)}`).join(',\n  ')},
  landing_referrer = CASE WHEN ${EARLIER_LANDING} THEN excluded.landing_referrer ELSE landing_referrer END,
  landing_id = CASE WHEN ${EARLIER_LANDING} THEN excluded.landing_id ELSE landing_id END,
  landing_ts = CASE WHEN ${EARLIER_LANDING} THEN excluded.landing_ts ELSE landing_ts END
  WHERE excluded.first_ts < first_ts OR excluded.last_ts > last_ts OR ${EARLIER_LANDING}
     OR ${SETS.map(({ name }) => gains(name)).join(' OR ')}`,
  ],
  // Most sessions begin in the load that brings their first events: inserted without reading stored rows.
  newRowsFirst: true,
};
