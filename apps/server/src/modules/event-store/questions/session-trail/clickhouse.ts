import type { ClickHouse } from '../../clickhouse/client.ts';
import { timeParam } from '../../clickhouse/question-sql.ts';
import { ms } from '../../clickhouse/sql.ts';
import { TRAIL_LENGTH, TRAIL_LOOKBACK_MS } from '../../domain.ts';
import type { StoredOccurrence } from '../occurrence-by-id/question.ts';
import { type StoredTrailEvent, TrailRow, trailEventOf } from './question.ts';

/**
 * Up to 20 events of the occurrence's session logged before it (or in the same millisecond) within the
 * 24 hours before it, oldest first (ties by id). Without FINAL: the copies of an event not merged away yet
 * share its key (time, id) and are the same event, so one per key is kept (`LIMIT 1 BY`); FINAL would
 * read every column of the project's day of events before the session's conditions could skip them
 * (ClickHouse applies no PREWHERE under FINAL): 15–19 → 5 ms of chdb's CPU on the bench's 10 M events
 * (ADR 042).
 */
export async function sessionTrail(
  clickhouse: ClickHouse,
  projectId: string,
  occurrence: Pick<StoredOccurrence, 'eventId' | 'timeMs' | 'sessionId' | 'userId'>,
): Promise<StoredTrailEvent[]> {
  const rows = await clickhouse.rows(
    `SELECT ${ms('ts')} AS time, type, event_name, path, title, wallet_address, wallet_provider,
            chain_id, tx_stage, tx_kind, tx_hash, tx_to, selector, sig_stage, sig_method,
            error_source, error_message, error_code, rpc_method
       FROM events
      WHERE project_id = {project:String} AND session_id = {session:String} AND user_id = {user:String}
        AND ts <= ${timeParam('at')} AND id != {event:String} AND ts >= ${timeParam('since')}
      ORDER BY ts DESC, id DESC
      LIMIT 1 BY ts, id
      LIMIT ${TRAIL_LENGTH}`,
    {
      project: projectId,
      session: occurrence.sessionId,
      user: occurrence.userId,
      at: occurrence.timeMs,
      since: occurrence.timeMs - TRAIL_LOOKBACK_MS,
      event: occurrence.eventId,
    },
    TrailRow,
  );
  return rows.reverse().map(trailEventOf);
}
