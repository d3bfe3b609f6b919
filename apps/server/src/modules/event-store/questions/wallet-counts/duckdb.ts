import type { DuckDBConnection } from '@duckdb/node-api';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { FROM, IN_RANGE, rangeParams, rowsOf } from '../../duckdb/sql.ts';

/**
 * The overview's two wallet tiles in one query: wallets connected in the range, and those of them no event
 * carried before `from` (the same definitions as connected-wallets.ts and new-wallets.ts, one bucket).
 */
export async function walletCounts(connection: DuckDBConnection, projectId: string, range: TimeRange) {
  const [row] = await rowsOf(
    connection,
    `WITH connected AS (
       SELECT DISTINCT wallet_address
         FROM events
        WHERE ${IN_RANGE} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
     )
     SELECT count(*)::DOUBLE AS connected,
            count(*) FILTER (WHERE wallet_firsts.first_seen >= ${FROM})::DOUBLE AS fresh
       FROM connected
       LEFT JOIN wallet_firsts ON wallet_firsts.project_id = $project
        AND wallet_firsts.wallet_address = connected.wallet_address`,
    rangeParams(projectId, range),
  );
  return { connected: Number(row?.connected ?? 0), fresh: Number(row?.fresh ?? 0) };
}
