import type pg from 'pg';
import { epochMs, FROM, TO } from './sql.ts';

/** $4: start of the previous period (from − (to − from)). */
export const activeDays = (pool: pg.Pool, project: string, from: number, to: number, previousFrom: number) =>
  pool.query(
    `WITH activity AS (
       SELECT ts >= ${FROM} AS is_current, wallet_address, user_id, floor(${epochMs('ts')} / 86400000) AS day
         FROM events
        WHERE project_id = $1 AND ts >= (to_timestamp($4::bigint / 1000.0) AT TIME ZONE 'UTC') AND ts < ${TO}),
     wallet_days AS (
       SELECT is_current, count(*) AS days
         FROM (SELECT DISTINCT is_current, wallet_address, day FROM activity WHERE wallet_address IS NOT NULL) w
        GROUP BY is_current)
     SELECT (SELECT days FROM wallet_days WHERE is_current) AS wallet_days,
            (SELECT days FROM wallet_days WHERE NOT is_current) AS previous_wallet_days,
            (SELECT count(*) FROM (SELECT DISTINCT user_id, day FROM activity WHERE is_current) u) AS user_days`,
    [project, from, to, previousFrom],
  );
