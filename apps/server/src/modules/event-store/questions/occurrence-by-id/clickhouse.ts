import type { ClickHouse } from '../../clickhouse/client.ts';
import { ERROR_EVENTS } from '../../clickhouse/derived-tables.ts';
import { ms } from '../../clickhouse/sql.ts';
import { OccurrenceRow, occurrenceOf, type StoredOccurrence } from './question.ts';

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
            browser, os, country, release
       FROM ${ERROR_EVENTS}
      WHERE project_id = {project:String} AND id = {event:String} AND type = 'error'
      LIMIT 1`,
    { project: projectId, event: eventId },
    OccurrenceRow,
  );
  return row ? occurrenceOf(row) : null;
}
