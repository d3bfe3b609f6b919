import { z } from 'zod';
import { type Connection, listParam, rowsOf } from '../../duckdb/sql.ts';
import { count, text } from '../../rows.ts';
import type { WalletTimelineEvent } from '../../wallet-questions.ts';
import { TIMELINE_EVENTS, TimelineRow, timelineEventOf } from './question.ts';

const LatestRow = z.object({ session_id: text, last_ms: count, from_ms: count, to_ms: count });

/**
 * The latest sessions from the wallet's `wallet_sessions` rows, with each session's first and last event
 * (`sessions`); then their events, read between the earliest first and the latest last (ADR 073).
 */
export async function walletTimeline(
  connection: Connection,
  projectId: string,
  wallet: string,
  sessions: number,
): Promise<WalletTimelineEvent[]> {
  const latest = await rowsOf(
    connection,
    `WITH latest AS (
       SELECT session_id, last_ts FROM wallet_sessions
        WHERE project_id = $project AND wallet_address = $wallet
        ORDER BY last_ts DESC, session_id LIMIT $sessions
     )
     SELECT l.session_id, epoch_ms(any_value(l.last_ts)) AS last_ms, epoch_ms(min(s.first_ts)) AS from_ms,
            epoch_ms(max(s.last_ts)) AS to_ms
       FROM latest l JOIN sessions s ON s.session_id = l.session_id
      WHERE s.project_id = $project
      GROUP BY l.session_id`,
    { project: projectId, wallet, sessions: BigInt(sessions) },
    LatestRow,
  );
  if (latest.length === 0) return [];
  const rows = await rowsOf(
    connection,
    `WITH latest AS (
       SELECT unnest($sessions::VARCHAR[]) AS session_id, unnest($lasts::BIGINT[]) AS last_ms
     )
     SELECT e.id, e.session_id, epoch_ms(e.ts) AS time_ms, e.type, e.path, e.wallet_address, e.wallet_provider,
            e.chain_id, e.tx_id, e.tx_stage, e.tx_hash, e.tx_to, e.selector, e.gas_used::VARCHAR AS gas_used_text,
            e.effective_gas_price::VARCHAR AS effective_gas_price_text, e.sig_stage, e.sig_method, e.error_source,
            e.error_message, e.error_code, e.rpc_method, e.incident_id, e.gas_balance::VARCHAR AS gas_balance_text,
            e.wallet_nonce::VARCHAR AS wallet_nonce_text
       FROM events e JOIN latest l ON l.session_id = e.session_id
      WHERE e.project_id = $project AND e.ts >= make_timestamp($from::BIGINT * 1000)
        AND e.ts <= make_timestamp($to::BIGINT * 1000)
      ORDER BY l.last_ms DESC, l.session_id, e.ts, e.id
      LIMIT ${TIMELINE_EVENTS}`,
    {
      project: projectId,
      sessions: listParam(latest.map((row) => row.session_id)),
      lasts: listParam(latest.map((row) => BigInt(row.last_ms))),
      from: BigInt(Math.min(...latest.map((row) => row.from_ms))),
      to: BigInt(Math.max(...latest.map((row) => row.to_ms))),
    },
    TimelineRow,
  );
  return rows.map(timelineEventOf);
}
