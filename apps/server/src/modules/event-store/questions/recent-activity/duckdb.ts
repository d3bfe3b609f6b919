import type { BucketedRange } from '../../../../reading/time-range.ts';
import { bucketOf, bucketParams, type Connection, IN_RANGE, rangeParams, rowsOf } from '../../duckdb/sql.ts';
import { BucketValueRow, bucketMap } from '../../rows.ts';
import { ActivityTotalsRow, type RecentActivity } from './question.ts';

/** Users and wallets with any event in the range, and events per bucket (the Live screen). */
export async function recentActivity(
  connection: Connection,
  projectId: string,
  range: BucketedRange,
): Promise<RecentActivity> {
  const [totals] = await rowsOf(
    connection,
    `SELECT count(DISTINCT user_id)::DOUBLE AS users,
            count(DISTINCT coalesce(wallet_address, tx_from))::DOUBLE AS wallets
       FROM events
      WHERE ${IN_RANGE}`,
    rangeParams(projectId, range),
    ActivityTotalsRow,
  );
  const buckets = await rowsOf(
    connection,
    `SELECT ${bucketOf('ts', range)} AS bucket, count(*)::DOUBLE AS value
       FROM events
      WHERE ${IN_RANGE}
      GROUP BY bucket`,
    bucketParams(projectId, range),
    BucketValueRow,
  );
  return {
    users: totals?.users ?? 0,
    wallets: totals?.wallets ?? 0,
    eventsPerBucket: bucketMap(buckets, (row) => row.value),
  };
}
