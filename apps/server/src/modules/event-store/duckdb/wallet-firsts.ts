import type { DerivedTable } from './derived-table.ts';

/** `wallet_firsts`: each wallet's first event and first connection (ADR 005, 046). */
export const WALLET_FIRSTS: DerivedTable = {
  name: 'wallet_firsts',
  definedIn: 4,
  order: 'project_id, first_seen',
  // The earliest connection wins; the smaller session id breaks a tie, so the answer is stable. Only
  // rows that change are written (most loads see wallets already known).
  rows: `SELECT project_id, wallet_address, min(ts) AS first_seen,
       min(ts) FILTER (WHERE type = 'wallet_connected') AS first_connected,
       arg_min(session_id, (ts, session_id)) FILTER (WHERE type = 'wallet_connected') AS first_connected_session
  FROM {source} WHERE wallet_address IS NOT NULL
 GROUP BY project_id, wallet_address`,
  onConflict: [
    `ON CONFLICT (project_id, wallet_address) DO UPDATE SET
  first_seen = least(first_seen, excluded.first_seen),
  first_connected = least(first_connected, excluded.first_connected),
  first_connected_session = CASE
    WHEN excluded.first_connected IS NULL THEN first_connected_session
    WHEN first_connected IS NULL THEN excluded.first_connected_session
    WHEN (excluded.first_connected, excluded.first_connected_session) < (first_connected, first_connected_session)
      THEN excluded.first_connected_session
    ELSE first_connected_session END
  WHERE excluded.first_seen < first_seen OR (excluded.first_connected IS NOT NULL AND (first_connected IS NULL
    OR (excluded.first_connected, excluded.first_connected_session) < (first_connected, first_connected_session)))`,
  ],
};
