import { z } from 'zod';
import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import { OccurrenceRow, occurrenceOf, type StoredOccurrence } from './question.ts';

/** The occurrence's time in the derived table: an adapter's own lookup, not the question's answer. */
const KnownRow = z.object({ micros: z.bigint() });

/**
 * One stored error event by id (the summary query names the latest occurrence). Its time comes first from
 * the derived `incident_occurrences`, so that the zone maps on `ts` narrow the read of `events` to a row
 * group or two: the events' key does not serve the lookup, and without the time it read all the project's
 * events (about 170 ms for the largest project of the bench, ADR 025). An error event without an incident
 * is not there, and is looked for in all the project's events.
 */
export async function occurrenceById(
  connection: Connection,
  projectId: string,
  eventId: string,
): Promise<StoredOccurrence | null> {
  const [known] = await rowsOf(
    connection,
    `SELECT epoch_us(ts) AS micros FROM incident_occurrences WHERE project_id = $project AND id = $event`,
    { project: projectId, event: eventId },
    KnownRow,
  );
  const at = known ? 'AND ts = make_timestamp($micros::BIGINT)' : '';
  const [row] = await rowsOf(
    connection,
    `SELECT id, epoch_ms(ts)::DOUBLE AS time, user_id, session_id, error_source, wallet_address, error_message,
            error_stack, error_code::DOUBLE AS error_code, rpc_method, gas_balance, wallet_nonce,
            chain_id::DOUBLE AS chain_id, wallet_provider, path, browser, os, country, release
       FROM events
      WHERE project_id = $project AND id = $event AND type = 'error' ${at}`,
    { project: projectId, event: eventId, ...(known ? { micros: known.micros } : {}) },
    OccurrenceRow,
  );
  return row ? occurrenceOf(row) : null;
}
