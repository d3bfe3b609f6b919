import type { DuckDBConnection } from '@duckdb/node-api';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import type { RecentActivity } from '../../analytics-questions.ts';
import { bucketMap, bucketOf, bucketParams, IN_RANGE, rangeParams, rowsOf } from '../../duckdb/sql.ts';

/** Users and wallets with any event in the range, and events per bucket (the Live screen). */
export async function recentActivity(
  connection: DuckDBConnection,
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
  );
  const buckets = await rowsOf(
    connection,
    `SELECT ${bucketOf('ts')} AS bucket, count(*)::DOUBLE AS value
       FROM events
      WHERE ${IN_RANGE}
      GROUP BY bucket`,
    bucketParams(projectId, range),
  );
  return {
    users: Number(totals?.users ?? 0),
    wallets: Number(totals?.wallets ?? 0),
    eventsPerBucket: bucketMap(buckets, (row) => Number(row.value)),
  };
}
