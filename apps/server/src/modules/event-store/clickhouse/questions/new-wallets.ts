import type { BucketedRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../client.ts';
import { bucketMap, bucketOf, bucketParams, EVENTS, FROM, IN_RANGE } from '../sql.ts';
import { BucketValueRow } from './connected-wallets.ts';

/**
 * The connected wallets of the range (as connected-wallets.ts) and, of those, the ones some event of the
 * project carried before `from`: the history before the range is read only for these wallets.
 */
export const CONNECTED_AND_SEEN_BEFORE = `connected AS (
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
     )`;

/** Wallets connected in the range that no event carried before `from`, in the bucket of their first connection. */
export async function newWallets(clickhouse: ClickHouse, projectId: string, range: BucketedRange) {
  const rows = await clickhouse.rows(
    `WITH ${CONNECTED_AND_SEEN_BEFORE}
     SELECT ${bucketOf('first_at')} AS bucket, count() AS value
       FROM connected
      WHERE wallet_address NOT IN (SELECT wallet_address FROM seen_before)
      GROUP BY bucket`,
    bucketParams(projectId, range),
    BucketValueRow,
  );
  return bucketMap(rows, (row) => row.value);
}
