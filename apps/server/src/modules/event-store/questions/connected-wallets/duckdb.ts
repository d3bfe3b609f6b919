import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { bucketOf, bucketParams, type Connection, IN_RANGE, rowsOf } from '../../duckdb/sql.ts';
import { BucketValueRow, bucketMap } from '../../rows.ts';

/** Distinct wallets connected in the range, each counted in the bucket of its first connection in the range. */
export async function connectedWallets(
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
     SELECT ${bucketOf('first_at', range)} AS bucket, count(*) AS value FROM connected GROUP BY bucket`,
    { ...bucketParams(projectId, range), ...filter.params },
    BucketValueRow,
  );
  return bucketMap(rows, (row) => row.value);
}
