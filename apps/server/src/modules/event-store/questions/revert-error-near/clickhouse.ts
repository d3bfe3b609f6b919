import type { ClickHouse } from '../../clickhouse/client.ts';
import { ERROR_EVENTS } from '../../clickhouse/derived-tables.ts';
import { REVERT_ERROR_WINDOW } from '../../domain.ts';
import { MessageRow } from './question.ts';

/**
 * The message of the latest wallet error about a revert (`execution reverted: STF`, a gas estimate or call
 * that the contract refused) in the transaction's session, from 1 min before its request to 10 s after its
 * outcome: the reason the contract gave, which the receipt of a reverted transaction does not carry.
 */
export async function revertErrorNear(
  clickhouse: ClickHouse,
  projectId: string,
  around: { sessionId: string; fromMs: number; toMs: number },
): Promise<string | null> {
  if (!around.sessionId) return null;
  const [row] = await clickhouse.rows(
    `SELECT error_message
       FROM ${ERROR_EVENTS}
      WHERE project_id = {project:String} AND session_id = {session:String} AND type = 'error'
        AND error_source = 'wallet'
        AND ts >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND ts <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')
        AND error_message ILIKE '%revert%'
      ORDER BY ts DESC, id DESC
      LIMIT 1`,
    {
      project: projectId,
      session: around.sessionId,
      from: around.fromMs - REVERT_ERROR_WINDOW.beforeMs,
      to: around.toMs + REVERT_ERROR_WINDOW.afterMs,
    },
    MessageRow,
  );
  return row?.error_message ?? null;
}
