import type { ClickHouse } from '../../clickhouse/client.ts';
import { EVENTS } from '../../clickhouse/sql.ts';
import { type StoredTxEvent, TxEventRow } from './question.ts';

export async function findTxEvent(
  clickhouse: ClickHouse,
  projectId: string,
  id: string,
): Promise<StoredTxEvent | null> {
  const [row] = await clickhouse.rows(
    `SELECT id, type, user_id, session_id, origin, tx_id, tx_hash, tx_from, tx_to, tx_kind, chain_id
       FROM ${EVENTS} WHERE project_id = {project:String} AND id = {id:String} LIMIT 1`,
    { project: projectId, id },
    TxEventRow,
  );
  return row ?? null;
}
