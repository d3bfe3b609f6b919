import type { DuckDBConnection } from '@duckdb/node-api';
import type { StoredOccurrence } from '../../incident-questions.ts';
import { numberOrNull, rowsOf, textOrNull } from '../sql.ts';

const bigText = (value: unknown) => (value == null ? null : String(value));

/** One stored error event by id: a primary-key lookup (the summary query names the latest occurrence). */
export async function occurrenceById(
  connection: DuckDBConnection,
  projectId: string,
  eventId: string,
): Promise<StoredOccurrence | null> {
  const [row] = await rowsOf(
    connection,
    `SELECT id, epoch_ms(ts)::DOUBLE AS time, user_id, session_id, error_source, wallet_address, error_message,
            error_stack, error_code::DOUBLE AS error_code, rpc_method, gas_balance, wallet_nonce,
            chain_id::DOUBLE AS chain_id, wallet_provider, path, browser, os, country
       FROM events
      WHERE project_id = $project AND id = $event AND type = 'error'`,
    { project: projectId, event: eventId },
  );
  if (!row) return null;
  return {
    eventId: String(row.id),
    timeMs: Number(row.time),
    userId: String(row.user_id),
    sessionId: String(row.session_id),
    source: String(row.error_source),
    wallet: textOrNull(row.wallet_address),
    message: String(row.error_message ?? ''),
    stack: textOrNull(row.error_stack),
    code: numberOrNull(row.error_code),
    method: textOrNull(row.rpc_method),
    gasBalance: bigText(row.gas_balance),
    walletNonce: bigText(row.wallet_nonce),
    chainId: numberOrNull(row.chain_id),
    walletProvider: textOrNull(row.wallet_provider),
    path: textOrNull(row.path),
    browser: textOrNull(row.browser),
    os: textOrNull(row.os),
    country: textOrNull(row.country),
  };
}
