import { z } from 'zod';
import { type Connection, type Params, rowsOf } from '../../duckdb/sql.ts';
import { count, text } from '../../rows.ts';
import type { WalletTimelineEvent } from '../../wallet-questions.ts';
import { TIMELINE_EVENTS, TimelineRow, timelineEventOf } from './question.ts';

const LatestRow = z.object({ session_id: text, last_ms: count });

/**
 * The latest sessions from the wallet's `wallet_sessions` rows, then their events by a list of session
 * ids (a filter DuckDB applies while it scans, cheaper than a join with the sessions; ADR 073).
 */
export async function walletTimeline(
  connection: Connection,
  projectId: string,
  wallet: string,
  sessions: number,
): Promise<WalletTimelineEvent[]> {
  const latest = await rowsOf(
    connection,
    `SELECT session_id, epoch_ms(last_ts) AS last_ms FROM wallet_sessions
      WHERE project_id = $project AND wallet_address = $wallet
      ORDER BY last_ts DESC, session_id LIMIT $sessions`,
    { project: projectId, wallet, sessions: BigInt(sessions) },
    LatestRow,
  );
  if (latest.length === 0) return [];
  const params: Params = { project: projectId };
  latest.forEach((row, index) => {
    params[`s_${index}`] = row.session_id;
  });
  const order = latest.map((_row, index) => `WHEN $s_${index} THEN ${index}`).join(' ');
  const rows = await rowsOf(
    connection,
    `SELECT id, session_id, epoch_ms(ts) AS time_ms, type, path, wallet_address, wallet_provider,
            chain_id, tx_id, tx_stage, tx_hash, tx_to, selector, gas_used::VARCHAR AS gas_used_text,
            effective_gas_price::VARCHAR AS effective_gas_price_text, sig_stage, sig_method, error_source,
            error_message, error_code, rpc_method, incident_id, gas_balance::VARCHAR AS gas_balance_text,
            wallet_nonce::VARCHAR AS wallet_nonce_text
       FROM events
      WHERE project_id = $project AND session_id IN (${latest.map((_row, index) => `$s_${index}`).join(', ')})
      ORDER BY CASE session_id ${order} END, ts, id
      LIMIT ${TIMELINE_EVENTS}`,
    params,
    TimelineRow,
  );
  return rows.map(timelineEventOf);
}
