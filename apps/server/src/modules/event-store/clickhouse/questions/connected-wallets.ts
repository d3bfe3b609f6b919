import { z } from 'zod';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../client.ts';
import { bucketMap, bucketOf, bucketParams, EVENTS, IN_RANGE } from '../sql.ts';

export const BucketValueRow = z.object({ bucket: z.coerce.number(), value: z.coerce.number() });

/** Distinct wallets connected in the range, each counted in the bucket of its first connection in the range. */
export async function connectedWallets(clickhouse: ClickHouse, projectId: string, range: BucketedRange) {
  const rows = await clickhouse.rows(
    `WITH connected AS (
       SELECT wallet_address, min(ts) AS first_at
         FROM ${EVENTS}
        WHERE ${IN_RANGE} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
        GROUP BY wallet_address
     )
     SELECT ${bucketOf('first_at')} AS bucket, count() AS value FROM connected GROUP BY bucket`,
    bucketParams(projectId, range),
    BucketValueRow,
  );
  return bucketMap(rows, (row) => row.value);
}
