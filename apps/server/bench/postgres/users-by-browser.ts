import type pg from 'pg';
import { IN_RANGE } from './sql.ts';

export const usersByBrowser = (pool: pg.Pool, project: string, from: number, to: number, limit: number) =>
  pool.query(
    `SELECT browser AS key, count(DISTINCT user_id) AS value
       FROM events WHERE ${IN_RANGE}
      GROUP BY 1 ORDER BY value DESC, key NULLS LAST LIMIT $4`,
    [project, from, to, limit],
  );
