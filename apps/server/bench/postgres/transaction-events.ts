import type pg from 'pg';

export const transactionEvents = (pool: pg.Pool, project: string, hashOrId: string) =>
  pool.query(
    `SELECT * FROM events
      WHERE project_id = $1 AND type = 'tx'
        AND tx_id = (SELECT tx_id FROM events
                      WHERE project_id = $1 AND type = 'tx' AND (tx_hash = $2 OR tx_id = $2) LIMIT 1)
      ORDER BY ts`,
    [project, hashOrId],
  );
