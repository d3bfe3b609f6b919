import type pg from 'pg';
import { FROM, IN_RANGE } from './sql.ts';

export const walletCounts = (pool: pg.Pool, project: string, from: number, to: number) =>
  pool.query(
    `WITH connected AS (
       SELECT DISTINCT wallet_address FROM events
        WHERE ${IN_RANGE} AND type = 'wallet_connected' AND wallet_address IS NOT NULL)
     SELECT (SELECT count(*) FROM connected) AS connected,
            (SELECT count(*) FROM connected c
              WHERE NOT EXISTS (SELECT 1 FROM events e
                                 WHERE e.project_id = $1 AND e.ts < ${FROM} AND e.wallet_address = c.wallet_address)) AS fresh`,
    [project, from, to],
  );
