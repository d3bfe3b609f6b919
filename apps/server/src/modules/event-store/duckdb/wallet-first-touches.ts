import type { DerivedTable } from './derived-table.ts';

/**
 * `wallet_first_touches`: each wallet's first event (time, id, and the landing UTM source and campaign it
 * carries: the Wallets list's first touch, ADR 073) and first connection (ADR 005, 046).
 * Named `wallet_firsts` before version 10; ClickHouse's `wallet_firsts` keeps the two first times alone
 * (docs/decisions/090-one-name-one-shape.md).
 */
export const WALLET_FIRST_TOUCHES: DerivedTable = {
  name: 'wallet_first_touches',
  definedIn: 10,
  order: 'project_id, first_seen',
  // The earliest connection wins; the smaller session id breaks a tie, so the answer is stable. The first
  // event is the least (time, id). Only rows that change are written (most loads see wallets already known).
  rows: `SELECT project_id, wallet_address, min(ts) AS first_seen,
       min(ts) FILTER (WHERE type = 'wallet_connected') AS first_connected,
       arg_min(session_id, (ts, session_id)) FILTER (WHERE type = 'wallet_connected') AS first_connected_session,
       arg_min(id, (ts, id)) AS first_id,
       arg_min_null(utm_source, (ts, id)) AS first_source,
       arg_min_null(utm_campaign, (ts, id)) AS first_campaign
  FROM {source} WHERE wallet_address IS NOT NULL
 GROUP BY project_id, wallet_address`,
  onConflict: [
    `ON CONFLICT (project_id, wallet_address) DO UPDATE SET
  first_id = CASE WHEN (excluded.first_seen, excluded.first_id) < (first_seen, first_id) THEN excluded.first_id
    ELSE first_id END,
  first_source = CASE WHEN (excluded.first_seen, excluded.first_id) < (first_seen, first_id) THEN excluded.first_source
    ELSE first_source END,
  first_campaign = CASE WHEN (excluded.first_seen, excluded.first_id) < (first_seen, first_id)
    THEN excluded.first_campaign ELSE first_campaign END,
  first_seen = least(first_seen, excluded.first_seen),
  first_connected = least(first_connected, excluded.first_connected),
  first_connected_session = CASE
    WHEN excluded.first_connected IS NULL THEN first_connected_session
    WHEN first_connected IS NULL THEN excluded.first_connected_session
    WHEN (excluded.first_connected, excluded.first_connected_session) < (first_connected, first_connected_session)
      THEN excluded.first_connected_session
    ELSE first_connected_session END
  WHERE (excluded.first_seen, excluded.first_id) < (first_seen, first_id) OR (excluded.first_connected IS NOT NULL AND (first_connected IS NULL
    OR (excluded.first_connected, excluded.first_connected_session) < (first_connected, first_connected_session)))`,
  ],
};
