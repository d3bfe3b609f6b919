import { z } from 'zod';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../client.ts';
import { count } from '../question-sql.ts';
import { EVENTS, FROM, IN_RANGE, ms, rangeParams } from '../sql.ts';

const BucketRow = z.object({ bucket: count, value: count });

/**
 * Wallets connected in the range that no event of the project carried before `from`, each counted in the
 * bucket of its first connection in the range (buckets start at `from` and last `bucket` ms).
 */
export async function newWallets(clickhouse: ClickHouse, projectId: string, range: BucketedRange) {
  const rows = await clickhouse.rows(
    `WITH connected AS (
       SELECT wallet_address, min(ts) AS first_at
         FROM ${EVENTS}
        WHERE ${IN_RANGE} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
        GROUP BY wallet_address
     ),
     seen_before AS (
       SELECT DISTINCT wallet_address
         FROM ${EVENTS}
        WHERE project_id = {project:String} AND ts < ${FROM}
          AND wallet_address IN (SELECT wallet_address FROM connected)
     )
     SELECT intDiv(${ms('first_at')} - {from:Int64}, {bucket:Int64}) AS bucket, count() AS value
       FROM connected
      WHERE wallet_address NOT IN (SELECT wallet_address FROM seen_before)
      GROUP BY bucket`,
    { ...rangeParams(projectId, range), bucket: range.bucketMs },
    BucketRow,
  );
  return new Map(rows.map((row) => [row.bucket, row.value] as const));
}
