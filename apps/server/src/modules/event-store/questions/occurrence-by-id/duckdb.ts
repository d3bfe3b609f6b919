import type { DuckDBConnection } from '@duckdb/node-api';
import { numberOrNull, rowsOf, textOrNull } from '../../duckdb/sql.ts';
import type { StoredOccurrence } from '../../incident-questions.ts';

const bigText = (value: unknown) => (value == null ? null : String(value));

/**
 * One stored error event by id (the summary query names the latest occurrence). Its time comes first from
 * the derived `incident_occurrences`, so that the zone maps on `ts` narrow the read of `events` to a row
 * group or two: the events' key does not serve the lookup, and without the time it read all the project's
 * events (about 170 ms for the largest project of the bench, ADR 025). An error event without an incident
 * is not there, and is looked for in all the project's events.
 */
export async function occurrenceById(
  connection: DuckDBConnection,
  projectId: string,
  eventId: string,
): Promise<StoredOccurrence | null> {
  const [known] = await rowsOf(
    connection,
    `SELECT epoch_us(ts) AS micros FROM incident_occurrences WHERE project_id = $project AND id = $event`,
    { project: projectId, event: eventId },
  );
  const at = known ? 'AND ts = make_timestamp($micros::BIGINT)' : '';
  const [row] = await rowsOf(
    connection,
    `SELECT id, epoch_ms(ts)::DOUBLE AS time, user_id, session_id, error_source, wallet_address, error_message,
            error_stack, error_code::DOUBLE AS error_code, rpc_method, gas_balance, wallet_nonce,
            chain_id::DOUBLE AS chain_id, wallet_provider, path, browser, os, country
       FROM events
      WHERE project_id = $project AND id = $event AND type = 'error' ${at}`,
    { project: projectId, event: eventId, ...(known ? { micros: BigInt(String(known.micros)) } : {}) },
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
