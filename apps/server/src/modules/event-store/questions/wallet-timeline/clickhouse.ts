import type { ClickHouse } from '../../clickhouse/client.ts';
import { EVENT_ROWS, ms } from '../../clickhouse/sql.ts';
import type { WalletTimelineEvent } from '../../wallet-questions.ts';
import { TIMELINE_EVENTS, TimelineRow, timelineEventOf } from './question.ts';

/** `events` without FINAL, each event once by its id (a copy stored twice is the same row; ADR 073). */
export async function walletTimeline(
  clickhouse: ClickHouse,
  projectId: string,
  wallet: string,
  sessions: number,
): Promise<WalletTimelineEvent[]> {
  const rows = await clickhouse.rows(
    `WITH latest AS (
       SELECT session_id AS l_session, max(ts) AS l_last FROM wallet_events
        WHERE project_id = {project:String} AND wallet = {wallet:String}
        GROUP BY session_id ORDER BY l_last DESC, l_session LIMIT {sessions:Int64}
     )
     SELECT id, session_id, ${ms('ts')} AS time_ms, type, path, wallet_address, wallet_provider, chain_id,
            tx_id, tx_stage, tx_hash, tx_to, selector, toString(gas_used) AS gas_used_text,
            toString(effective_gas_price) AS effective_gas_price_text, sig_stage, sig_method, error_source,
            error_message, error_code, rpc_method, incident_id, toString(gas_balance) AS gas_balance_text,
            toString(wallet_nonce) AS wallet_nonce_text
       FROM ${EVENT_ROWS} INNER JOIN latest ON l_session = session_id
      WHERE project_id = {project:String} AND session_id IN (SELECT l_session FROM latest)
      ORDER BY l_last DESC, l_session, ts, id
      LIMIT 1 BY id
      LIMIT ${TIMELINE_EVENTS}`,
    { project: projectId, wallet, sessions },
    TimelineRow,
  );
  return rows.map(timelineEventOf);
}
