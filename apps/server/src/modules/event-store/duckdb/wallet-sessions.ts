import type { DerivedTable } from './derived-table.ts';

/** A set merged with a load's: only a new member rewrites it. */
const union = (column: string) =>
  `${column} = list_sort(list_distinct(list_concat(${column}, excluded.${column})))`;
const gains = (column: string) =>
  `len(list_filter(excluded.${column}, value -> NOT list_contains(${column}, value))) > 0`;

/**
 * `wallet_sessions`: one row per (wallet, session) with an event carrying the wallet (as the connected
 * wallet or a transaction's `from`, what forgetting a wallet deletes): that event's first (time, id), its
 * latest time, the wallet's first connection in the session, and the distinct non-empty countries,
 * browsers, providers and chains of those events (ADR 073). The wallet page reads the wallet's rows
 * instead of the project's events: its first and last event, first session, sessions, value sets, and
 * its latest sessions for the timeline.
 */
export const WALLET_SESSIONS: DerivedTable = {
  name: 'wallet_sessions',
  definedIn: 9,
  order: 'project_id, wallet_address, last_ts',
  rows: `SELECT project_id, wallet AS wallet_address, session_id, min(ts) AS first_ts, arg_min(id, (ts, id)) AS first_id,
       max(ts) AS last_ts,
       min(ts) FILTER (WHERE type = 'wallet_connected' AND wallet_address = wallet) AS connected_ts,
       list_sort(coalesce(list(DISTINCT country) FILTER (WHERE country <> ''), [])) AS countries,
       list_sort(coalesce(list(DISTINCT browser) FILTER (WHERE browser <> ''), [])) AS browsers,
       list_sort(coalesce(list(DISTINCT wallet_provider) FILTER (WHERE wallet_provider <> ''), [])) AS providers,
       list_sort(coalesce(list(DISTINCT chain_id) FILTER (WHERE chain_id IS NOT NULL), [])) AS chains
  FROM (SELECT *, unnest(list_distinct([wallet_address, tx_from])) AS wallet
          FROM {source} WHERE wallet_address IS NOT NULL OR tx_from IS NOT NULL)
 GROUP BY project_id, wallet, session_id`,
  onConflict: [
    `ON CONFLICT (project_id, wallet_address, session_id) DO UPDATE SET
  first_id = CASE WHEN (excluded.first_ts, excluded.first_id) < (first_ts, first_id) THEN excluded.first_id
    ELSE first_id END,
  first_ts = least(first_ts, excluded.first_ts),
  last_ts = greatest(last_ts, excluded.last_ts),
  connected_ts = least(connected_ts, excluded.connected_ts),
  ${union('countries')}, ${union('browsers')}, ${union('providers')}, ${union('chains')}
  WHERE (excluded.first_ts, excluded.first_id) < (first_ts, first_id) OR excluded.last_ts > last_ts
     OR (excluded.connected_ts IS NOT NULL AND (connected_ts IS NULL OR excluded.connected_ts < connected_ts))
     OR ${gains('countries')} OR ${gains('browsers')} OR ${gains('providers')} OR ${gains('chains')}`,
  ],
};
