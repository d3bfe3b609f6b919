import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import { type StoredTxEvent, TxEventRow } from './question.ts';

export async function findTxEvent(
  connection: Connection,
  projectId: string,
  id: string,
): Promise<StoredTxEvent | null> {
  const [row] = await rowsOf(
    connection,
    `SELECT id, type, user_id, session_id, origin, tx_id, tx_hash, tx_from, tx_to, tx_kind, chain_id
       FROM events WHERE project_id = $project AND id = $id`,
    { project: projectId, id },
    TxEventRow,
  );
  return row ?? null;
}
