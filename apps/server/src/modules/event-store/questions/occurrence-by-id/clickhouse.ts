import { z } from 'zod';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { ERROR_EVENTS } from '../../clickhouse/derived-tables.ts';
import { count, numberOrNull, textOrNull } from '../../clickhouse/question-sql.ts';
import { ms } from '../../clickhouse/sql.ts';
import type { StoredOccurrence } from '../../incident-questions.ts';

const OccurrenceRow = z.object({
  id: z.string(),
  time: count,
  user_id: z.string(),
  session_id: z.string(),
  error_source: textOrNull,
  wallet_address: textOrNull,
  error_message: textOrNull,
  error_stack: textOrNull,
  error_code: numberOrNull,
  rpc_method: textOrNull,
  gas_balance: textOrNull,
  wallet_nonce: textOrNull,
  chain_id: numberOrNull,
  wallet_provider: textOrNull,
  path: textOrNull,
  browser: textOrNull,
  os: textOrNull,
  country: textOrNull,
});

/** One stored error event by id (the summary query names the latest occurrence); big numbers as text. */
export async function occurrenceById(
  clickhouse: ClickHouse,
  projectId: string,
  eventId: string,
): Promise<StoredOccurrence | null> {
  const [row] = await clickhouse.rows(
    `SELECT id, ${ms('ts')} AS time, user_id, session_id, error_source, wallet_address, error_message,
            error_stack, error_code, rpc_method, toString(gas_balance) AS gas_balance,
            toString(wallet_nonce) AS wallet_nonce, chain_id, wallet_provider, path,
            browser, os, country
       FROM ${ERROR_EVENTS}
      WHERE project_id = {project:String} AND id = {event:String} AND type = 'error'
      LIMIT 1`,
    { project: projectId, event: eventId },
    OccurrenceRow,
  );
  if (!row) return null;
  return {
    eventId: row.id,
    timeMs: row.time,
    userId: row.user_id,
    sessionId: row.session_id,
    source: String(row.error_source),
    wallet: row.wallet_address,
    message: row.error_message ?? '',
    stack: row.error_stack,
    code: row.error_code,
    method: row.rpc_method,
    gasBalance: row.gas_balance,
    walletNonce: row.wallet_nonce,
    chainId: row.chain_id,
    walletProvider: row.wallet_provider,
    path: row.path,
    browser: row.browser,
    os: row.os,
    country: row.country,
  };
}
