import type pg from 'pg';
import { epochMs, IN_RANGE } from './sql.ts';

export const activeDays = (pool: pg.Pool, project: string, from: number, to: number) =>
  pool.query(
    `WITH activity AS (
       SELECT wallet_address, user_id, floor(${epochMs('ts')} / 86400000) AS day FROM events WHERE ${IN_RANGE})
     SELECT (SELECT count(*) FROM (SELECT DISTINCT wallet_address, day FROM activity WHERE wallet_address IS NOT NULL) w) AS wallet_days,
            (SELECT count(*) FROM (SELECT DISTINCT user_id, day FROM activity) u) AS user_days`,
    [project, from, to],
  );
