import type pg from 'pg';
import { bucketOf, IN_RANGE } from './sql.ts';

export const connectedWallets = (pool: pg.Pool, project: string, from: number, to: number, bucket: number) =>
  pool.query(
    `WITH connected AS (
       SELECT wallet_address, min(ts) AS first_at FROM events
        WHERE ${IN_RANGE} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
        GROUP BY wallet_address)
     SELECT ${bucketOf('first_at')} AS bucket, count(*) AS value FROM connected GROUP BY 1`,
    [project, from, to, bucket],
  );
