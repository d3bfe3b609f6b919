import { z } from 'zod';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { EVENTS } from '../../clickhouse/sql.ts';
import type { StoredTxEvent } from '../../event-store.ts';

const TxEventRow = z.object({
  id: z.string(),
  type: z.string(),
  user_id: z.string(),
  session_id: z.string(),
  origin: z.string(),
  tx_id: z.string().nullable(),
  tx_hash: z.string().nullable(),
  tx_from: z.string().nullable(),
  tx_to: z.string().nullable(),
  tx_kind: z.string().nullable(),
  chain_id: z.coerce.number().nullable(),
});

/** One stored event by id, with the transaction fields a later status update repeats. */
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
