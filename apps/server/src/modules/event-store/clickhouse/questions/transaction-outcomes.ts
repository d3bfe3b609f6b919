import { z } from 'zod';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import type { TransactionOutcomes } from '../../analytics-questions.ts';
import type { ClickHouse } from '../client.ts';
import { bucketMap, bucketOf, bucketParams, transactionsCte } from '../sql.ts';

const OutcomesRow = z.object({
  bucket: z.coerce.number(),
  total: z.coerce.number(),
  submitted: z.coerce.number(),
  failed: z.coerce.number(),
  attempted: z.coerce.number(),
});

/** Transactions per bucket of their request time, by outcome. */
export async function transactionOutcomes(clickhouse: ClickHouse, projectId: string, range: BucketedRange) {
  const rows = await clickhouse.rows(
    `WITH ${transactionsCte(['status', 'is_submitted'])}
     SELECT ${bucketOf('requested_at')} AS bucket,
            count() AS total,
            countIf(t_is_submitted) AS submitted,
            countIf(t_status IN ('reverted', 'failed')) AS failed,
            countIf(t_is_submitted OR t_status = 'failed') AS attempted
       FROM transactions
      GROUP BY bucket`,
    bucketParams(projectId, range),
    OutcomesRow,
  );
  return bucketMap(
    rows,
    ({ total, submitted, failed, attempted }): TransactionOutcomes => ({
      total,
      submitted,
      failed,
      attempted,
    }),
  );
}
