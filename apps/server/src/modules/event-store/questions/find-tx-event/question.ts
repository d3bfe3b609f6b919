import { z } from 'zod';
import type { EventRow } from '../../event-row.ts';
import { numberOrNull, text, textOrNull } from '../../rows.ts';

/** The fields of a stored transaction event the published SDK's status update builds on. */
export type StoredTxEvent = Pick<
  EventRow,
  | 'id'
  | 'type'
  | 'user_id'
  | 'session_id'
  | 'origin'
  | 'tx_id'
  | 'tx_hash'
  | 'tx_from'
  | 'tx_to'
  | 'tx_kind'
  | 'chain_id'
>;

/** One stored event by id, with the transaction fields a later status update repeats (ingestion). */
export type FindTxEventQuestion = {
  findTxEvent(projectId: string, id: string): Promise<StoredTxEvent | null>;
};

export const TxEventRow = z.object({
  id: text,
  type: text,
  user_id: text,
  session_id: text,
  origin: text,
  tx_id: textOrNull,
  tx_hash: textOrNull,
  tx_from: textOrNull,
  tx_to: textOrNull,
  tx_kind: textOrNull,
  chain_id: numberOrNull,
});
