import type { DuckDBConnection } from '@duckdb/node-api';
import type { StoredTxEvent } from '../../event-store.ts';

const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/** One stored event by id, with the transaction fields a later status update repeats. */
export async function findTxEvent(
  connection: DuckDBConnection,
  projectId: string,
  id: string,
): Promise<StoredTxEvent | null> {
  const reader = await connection.runAndReadAll(
    `SELECT id, type, user_id, session_id, origin, tx_id, tx_hash, tx_from, tx_to, tx_kind, chain_id::DOUBLE AS chain_id
       FROM events WHERE project_id = $1 AND id = $2`,
    [projectId, id],
  );
  const row = reader.getRowObjectsJS()[0];
  if (!row) return null;
  return {
    id: String(row.id),
    type: String(row.type),
    user_id: String(row.user_id),
    session_id: String(row.session_id),
    origin: String(row.origin),
    tx_id: text(row.tx_id),
    tx_hash: text(row.tx_hash),
    tx_from: text(row.tx_from),
    tx_to: text(row.tx_to),
    tx_kind: text(row.tx_kind),
    chain_id: row.chain_id === null ? null : Number(row.chain_id),
  };
}
