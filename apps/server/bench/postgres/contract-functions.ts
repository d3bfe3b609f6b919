import type pg from 'pg';
import { TRANSACTIONS_CTE } from './sql.ts';

export const contractFunctions = (pool: pg.Pool, project: string, from: number, to: number, limit: number) =>
  pool.query(
    `WITH ${TRANSACTIONS_CTE}
     SELECT chain_id, contract, coalesce(selector, '0x') AS selector, count(*) AS calls
       FROM transactions
      WHERE kind = 'contract' AND is_submitted AND contract IS NOT NULL
      GROUP BY chain_id, contract, coalesce(selector, '0x')
      ORDER BY calls DESC, contract, selector, chain_id
      LIMIT $4`,
    [project, from, to, limit],
  );
