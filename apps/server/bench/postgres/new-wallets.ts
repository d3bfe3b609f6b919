import type pg from 'pg';
import { bucketOf, FROM, IN_RANGE } from './sql.ts';

export const newWallets = (pool: pg.Pool, project: string, from: number, to: number, bucket: number) =>
  pool.query(
    `WITH connected AS (
       SELECT wallet_address, min(ts) AS first_at FROM events
        WHERE ${IN_RANGE} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
        GROUP BY wallet_address)
     SELECT ${bucketOf('first_at')} AS bucket, count(*) AS value
       FROM connected c
      WHERE NOT EXISTS (SELECT 1 FROM events e
                         WHERE e.project_id = $1 AND e.ts < ${FROM} AND e.wallet_address = c.wallet_address)
      GROUP BY 1`,
    [project, from, to, bucket],
  );
