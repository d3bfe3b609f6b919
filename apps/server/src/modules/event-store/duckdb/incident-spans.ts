import { INCIDENT_SOURCES, sqlList } from '../domain.ts';
import type { DerivedTable } from './derived-table.ts';

/** The latest occurrence's figures `incident_spans` keeps: its name, the occurrences' column. */
const LATEST_FIGURES = [
  ['title', 'error_message'],
  ['code', 'error_code'],
  ['method', 'rpc_method'],
] as const;
/** Whether a load's `incident_spans` row has a later latest time than the stored one (none: NULL). */
const LATER = `excluded.last_ts > coalesce(last_ts, '-infinity'::TIMESTAMP)`;
const SAME_TIME = 'excluded.last_ts = last_ts';
/** Likewise for the latest occurrence with a wallet (none: NULL). */
const LATER_WALLET = `(excluded.wallet_ts IS NOT NULL AND (wallet_ts IS NULL
       OR (excluded.wallet_ts, excluded.wallet_id) > (wallet_ts, wallet_id)))`;

/**
 * `incident_spans`: each incident's first and last occurrence and its latest occurrence's figures, as plain
 * values (ADR 037). Named `incident_lives` before version 10; ClickHouse's `incident_lives` holds aggregate
 * states of the whole life instead (docs/decisions/090-one-name-one-shape.md).
 */
export const INCIDENT_SPANS: DerivedTable = {
  name: 'incident_spans',
  definedIn: 10,
  order: 'project_id, incident_id',
  // What the summaries read from the occurrences at the latest time (incident-summaries.ts): the
  // greatest id there, and per figure the greatest id there with a value and that value. A load's row
  // replaces them when its latest time is later, adds to them when it is the same: every order of
  // loading gives the same row.
  rows: `SELECT project_id, incident_id, min(ts) AS first_any_ts,
       min(error_source) FILTER (WHERE counted) AS error_source,
       min(ts) FILTER (WHERE counted) AS first_ts,
       max(ts) FILTER (WHERE counted) AS last_ts,
       max(id) FILTER (WHERE is_latest) AS latest_id,
       ${LATEST_FIGURES.map(
         ([name, column]) =>
           `max(id) FILTER (WHERE is_latest AND ${column} IS NOT NULL) AS ${name}_id,
       arg_max(${column}, id) FILTER (WHERE is_latest AND ${column} IS NOT NULL) AS ${name}`,
       ).join(',\n         ')},
       max(ts) FILTER (WHERE counted AND wallet_address IS NOT NULL) AS wallet_ts,
       arg_max(id, (ts, id)) FILTER (WHERE counted AND wallet_address IS NOT NULL) AS wallet_id,
       arg_max(wallet_address, (ts, id)) FILTER (WHERE counted AND wallet_address IS NOT NULL) AS wallet
  FROM (SELECT *, counted AND ts = max(ts) FILTER (WHERE counted) OVER (PARTITION BY project_id, incident_id) AS is_latest
          FROM (SELECT *, coalesce(error_source IN ${sqlList(INCIDENT_SOURCES)}, false) AS counted
                  FROM {source} WHERE type = 'error' AND incident_id IS NOT NULL))
 GROUP BY project_id, incident_id`,
  onConflict: [
    `ON CONFLICT (project_id, incident_id) DO UPDATE SET
  first_any_ts = least(first_any_ts, excluded.first_any_ts),
  error_source = least(error_source, excluded.error_source),
  first_ts = least(first_ts, excluded.first_ts),
  latest_id = CASE WHEN ${LATER} THEN excluded.latest_id
    WHEN ${SAME_TIME} THEN greatest(latest_id, excluded.latest_id) ELSE latest_id END,
  ${LATEST_FIGURES.flatMap(([name]) =>
    [`${name}_id`, name].map(
      (column) => `${column} = CASE WHEN ${LATER} THEN excluded.${column}
    WHEN ${SAME_TIME} AND excluded.${name}_id > coalesce(${name}_id, '') THEN excluded.${column}
    ELSE ${column} END`,
    ),
  ).join(',\n    ')},
  last_ts = greatest(last_ts, excluded.last_ts),
  ${['wallet_id', 'wallet']
    .map((column) => `${column} = CASE WHEN ${LATER_WALLET} THEN excluded.${column} ELSE ${column} END`)
    .join(',\n    ')},
  wallet_ts = greatest(wallet_ts, excluded.wallet_ts)`,
  ],
};
