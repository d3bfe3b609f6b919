import type { BucketedRange, TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse, Params } from '../client.ts';
import { bucketMap, bucketOf, bucketParams, FROM } from '../sql.ts';
import { BucketValueRow, connectedCte } from './connected-wallets.ts';

/**
 * The connected wallets of the range (`connected`, connected-wallets.ts) and `seen_before`, the wallets
 * some event of the project carried before `from`: a wallet-day whose first event lies before `from`
 * (every day before `from`'s, and `from`'s own day when its first event came earlier that day). Only
 * `wallet_days` is read, never the events of the history before the range (docs/decisions/031).
 * `seen_before` is not narrowed to the connected wallets: ClickHouse computes a CTE again wherever it is
 * named, and the narrowing cost a second `connected` (105–123 ms against 31–36 ms for the tiles of the
 * bench's largest project, whose history holds 15,000 wallets).
 */
export function connectedAndSeenBefore(range: TimeRange): { sql: string; params: Params } {
  const connected = connectedCte(range);
  return {
    sql: `${connected.sql},
     seen_before AS (
       SELECT wallet
         FROM wallet_days
        WHERE project_id = {project:String} AND day <= toDate(${FROM}, 'UTC') AND first_seen < ${FROM}
     )`,
    params: connected.params,
  };
}

/** Wallets connected in the range that no event carried before `from`, in the bucket of their first connection. */
export async function newWallets(clickhouse: ClickHouse, projectId: string, range: BucketedRange) {
  const wallets = connectedAndSeenBefore(range);
  const rows = await clickhouse.rows(
    `WITH ${wallets.sql}
     SELECT ${bucketOf('first_at')} AS bucket, count() AS value
       FROM connected
      WHERE wallet NOT IN (SELECT wallet FROM seen_before)
      GROUP BY bucket`,
    { ...bucketParams(projectId, range), ...wallets.params },
    BucketValueRow,
  );
  return bucketMap(rows, (row) => row.value);
}
