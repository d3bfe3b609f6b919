import type pg from 'pg';
import { bucketOf, TRANSACTIONS_CTE } from './sql.ts';

export const transactionOutcomes = (
  pool: pg.Pool,
  project: string,
  from: number,
  to: number,
  bucket: number,
) =>
  pool.query(
    `WITH ${TRANSACTIONS_CTE}
     SELECT ${bucketOf('requested_at')} AS bucket, count(*) AS total,
            count(*) FILTER (WHERE is_submitted) AS submitted,
            count(*) FILTER (WHERE status IN ('reverted', 'failed')) AS failed,
            count(*) FILTER (WHERE is_submitted OR status = 'failed') AS attempted
       FROM transactions GROUP BY 1`,
    [project, from, to, bucket],
  );
