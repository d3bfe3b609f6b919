import type pg from 'pg';
import { epochMs, TRANSACTIONS_CTE } from './sql.ts';

/** The first page (no cursor), as the Transaction History tab asks it. */
export const transactionHistory = (pool: pg.Pool, project: string, from: number, to: number, limit: number) =>
  pool.query(
    `WITH ${TRANSACTIONS_CTE}
     SELECT tx_id, hash, ${epochMs('requested_at')} AS time_ms, wallet, kind, status, chain_id, country, browser
       FROM transactions
      ORDER BY requested_at DESC, tx_id DESC
      LIMIT $4`,
    [project, from, to, limit],
  );
