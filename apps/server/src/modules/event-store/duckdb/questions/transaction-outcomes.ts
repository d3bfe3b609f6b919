import type { DuckDBConnection } from '@duckdb/node-api';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import type { TransactionOutcomes } from '../../analytics-questions.ts';
import { bucketMap, bucketOf, bucketParams, rowsOf, transactionsCte } from '../sql.ts';

/** Transactions per bucket of their request time, by outcome. */
export async function transactionOutcomes(
  connection: DuckDBConnection,
  projectId: string,
  range: BucketedRange,
) {
  const rows = await rowsOf(
    connection,
    `WITH ${transactionsCte(['status', 'is_submitted'])}
     SELECT ${bucketOf('requested_at')} AS bucket,
            count(*)::DOUBLE AS total,
            count(*) FILTER (WHERE is_submitted)::DOUBLE AS submitted,
            count(*) FILTER (WHERE status IN ('reverted', 'failed'))::DOUBLE AS failed,
            count(*) FILTER (WHERE is_submitted OR status = 'failed')::DOUBLE AS attempted
       FROM transactions
      GROUP BY bucket`,
    bucketParams(projectId, range),
  );
  return bucketMap(
    rows,
    (row): TransactionOutcomes => ({
      total: Number(row.total),
      submitted: Number(row.submitted),
      failed: Number(row.failed),
      attempted: Number(row.attempted),
    }),
  );
}
