import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { bucketOf, bucketParams, type Connection, FROM, IN_RANGE, rowsOf } from '../../duckdb/sql.ts';
import { BucketValueRow, bucketMap } from '../../rows.ts';

/**
 * Wallets connected in the range that no event of the project carried before `from`, each counted in the
 * bucket of its first connection in the range. "Carried before `from`" is the wallet's first sighting in
 * the derived `wallet_first_touches` (ADR 005), not a scan of the history before the range.
 */
export async function newWallets(
  connection: Connection,
  projectId: string,
  range: BucketedRange,
  filters?: AnalyticsFilters,
) {
  const filter = await eventFilter(connection, projectId, range, filters);
  const rows = await rowsOf(
    connection,
    `${withCtes(filter.cte, 'connected AS (')}
       SELECT wallet_address, min(ts) AS first_at
         FROM events
        WHERE ${IN_RANGE}${filter.events} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
        GROUP BY wallet_address
     )
     SELECT ${bucketOf('first_at', range)} AS bucket, count(*) AS value
       FROM connected JOIN wallet_first_touches USING (wallet_address)
      WHERE wallet_first_touches.project_id = $project AND wallet_first_touches.first_seen >= ${FROM}
      GROUP BY bucket`,
    { ...bucketParams(projectId, range), ...filter.params },
    BucketValueRow,
  );
  return bucketMap(rows, (row) => row.value);
}
