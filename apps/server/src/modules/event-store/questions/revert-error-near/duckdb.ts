import { REVERT_ERROR_WINDOW } from '../../domain.ts';
import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import { MessageRow } from './question.ts';

/**
 * The message of the latest wallet error about a revert (`execution reverted: STF`, a gas estimate or call
 * that the contract refused) in the transaction's session, from 1 min before its request to 10 s after its
 * outcome: the reason the contract gave, which the receipt of a reverted transaction does not carry.
 */
export async function revertErrorNear(
  connection: Connection,
  projectId: string,
  around: { sessionId: string; fromMs: number; toMs: number },
): Promise<string | null> {
  if (!around.sessionId) return null;
  const [row] = await rowsOf(
    connection,
    `SELECT error_message
       FROM events
      WHERE project_id = $project AND session_id = $session AND type = 'error' AND error_source = 'wallet'
        AND ts >= make_timestamp($from::BIGINT * 1000) AND ts <= make_timestamp($to::BIGINT * 1000)
        AND error_message ILIKE '%revert%'
      ORDER BY ts DESC, id DESC
      LIMIT 1`,
    {
      project: projectId,
      session: around.sessionId,
      from: BigInt(around.fromMs - REVERT_ERROR_WINDOW.beforeMs),
      to: BigInt(around.toMs + REVERT_ERROR_WINDOW.afterMs),
    },
    MessageRow,
  );
  return row?.error_message ?? null;
}
