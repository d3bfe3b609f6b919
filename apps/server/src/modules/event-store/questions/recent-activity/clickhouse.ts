import type { BucketedRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { bucketOf, bucketParams, EVENTS, IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
import { BucketValueRow, bucketMap } from '../../rows.ts';
import { ActivityTotalsRow, type RecentActivity } from './question.ts';

/** Users and wallets with any event in the range, and events per bucket (the Live screen). */
export async function recentActivity(
  clickhouse: ClickHouse,
  projectId: string,
  range: BucketedRange,
): Promise<RecentActivity> {
  const [totals, buckets] = await Promise.all([
    clickhouse.rows(
      `SELECT uniqExact(user_id) AS users, uniqExact(coalesce(wallet_address, tx_from)) AS wallets
         FROM ${EVENTS}
        WHERE ${IN_RANGE}`,
      rangeParams(projectId, range),
      ActivityTotalsRow,
    ),
    clickhouse.rows(
      `SELECT ${bucketOf('ts', range)} AS bucket, count() AS value
         FROM ${EVENTS}
        WHERE ${IN_RANGE}
        GROUP BY bucket`,
      bucketParams(projectId, range),
      BucketValueRow,
    ),
  ]);
  return {
    users: totals[0]?.users ?? 0,
    wallets: totals[0]?.wallets ?? 0,
    eventsPerBucket: bucketMap(buckets, (row) => row.value),
  };
}
