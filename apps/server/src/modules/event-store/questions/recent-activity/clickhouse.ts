import { z } from 'zod';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import type { RecentActivity } from '../../analytics-questions.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { bucketMap, bucketOf, bucketParams, EVENTS, IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
import { BucketValueRow } from '../connected-wallets/clickhouse.ts';

const TotalsRow = z.object({ users: z.coerce.number(), wallets: z.coerce.number() });

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
      TotalsRow,
    ),
    clickhouse.rows(
      `SELECT ${bucketOf('ts')} AS bucket, count() AS value
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
