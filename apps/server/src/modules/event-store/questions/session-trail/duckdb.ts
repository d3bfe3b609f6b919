import { TRAIL_LENGTH, TRAIL_LOOKBACK_MS } from '../../domain.ts';
import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import type { StoredOccurrence } from '../occurrence-by-id/question.ts';
import { type StoredTrailEvent, TrailRow, trailEventOf } from './question.ts';

/**
 * Up to 20 events of the occurrence's session logged before it (or in the same millisecond) within the
 * 24 hours before it, oldest first.
 */
export async function sessionTrail(
  connection: Connection,
  projectId: string,
  occurrence: Pick<StoredOccurrence, 'eventId' | 'timeMs' | 'sessionId' | 'userId'>,
): Promise<StoredTrailEvent[]> {
  const rows = await rowsOf(
    connection,
    `SELECT epoch_ms(ts)::DOUBLE AS time, type, event_name, path, title, wallet_address, wallet_provider,
            chain_id::DOUBLE AS chain_id, tx_stage, tx_kind, tx_hash, tx_to, selector, sig_stage, sig_method,
            error_source, error_message, error_code::DOUBLE AS error_code, rpc_method
       FROM events
      WHERE project_id = $project AND session_id = $session AND user_id = $user
        AND ts <= make_timestamp($at::BIGINT * 1000) AND id <> $event
        AND ts >= make_timestamp(($at::BIGINT - $lookback::BIGINT) * 1000)
      ORDER BY ts DESC, id DESC
      LIMIT ${TRAIL_LENGTH}`,
    {
      project: projectId,
      session: occurrence.sessionId,
      user: occurrence.userId,
      at: BigInt(occurrence.timeMs),
      event: occurrence.eventId,
      lookback: BigInt(TRAIL_LOOKBACK_MS),
    },
    TrailRow,
  );
  return rows.reverse().map(trailEventOf);
}
