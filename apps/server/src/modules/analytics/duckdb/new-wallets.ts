import type { DuckDBConnection } from '@duckdb/node-api';
import type { BucketedRange } from '../time-range.ts';
import { bucketMap, bucketOf, bucketParams, FROM, IN_RANGE, rowsOf } from './sql.ts';

/**
 * Wallets connected in the range that no event of the project carried before `from`, each counted in the
 * bucket of its first connection in the range.
 */
export async function newWallets(connection: DuckDBConnection, projectId: string, range: BucketedRange) {
  const rows = await rowsOf(
    connection,
    `WITH connected AS (
       SELECT wallet_address, min(ts) AS first_at
         FROM events
        WHERE ${IN_RANGE} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
        GROUP BY wallet_address
     ),
     seen_before AS (
       SELECT DISTINCT wallet_address
         FROM events SEMI JOIN connected USING (wallet_address)
        WHERE project_id = $project AND ts < ${FROM}
     )
     SELECT ${bucketOf('first_at')} AS bucket, count(*)::DOUBLE AS value
       FROM connected ANTI JOIN seen_before USING (wallet_address)
      GROUP BY bucket`,
    bucketParams(projectId, range),
  );
  return bucketMap(rows, (row) => Number(row.value));
}
