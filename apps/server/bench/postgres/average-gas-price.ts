import type pg from 'pg';
import { bucketOf, IN_RANGE } from './sql.ts';

export const averageGasPrice = (pool: pg.Pool, project: string, from: number, to: number, bucket: number) =>
  pool.query(
    `SELECT ${bucketOf('ts')} AS bucket, avg(effective_gas_price::double precision) AS value
       FROM events
      WHERE ${IN_RANGE} AND type = 'tx' AND effective_gas_price IS NOT NULL
      GROUP BY 1`,
    [project, from, to, bucket],
  );
