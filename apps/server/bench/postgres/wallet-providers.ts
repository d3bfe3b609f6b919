import type pg from 'pg';
import { IN_RANGE } from './sql.ts';

export const walletProviders = (pool: pg.Pool, project: string, from: number, to: number) =>
  pool.query(
    `SELECT wallet_provider AS key, count(DISTINCT wallet_address) AS value
       FROM events
      WHERE ${IN_RANGE} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
      GROUP BY 1 ORDER BY value DESC, key NULLS LAST`,
    [project, from, to],
  );
