import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import type { WalletTimelineEvent } from '../../wallet-questions.ts';
import { CARRIES_WALLET } from '../wallet-profile/question.ts';
import { TIMELINE_EVENTS, TimelineRow, timelineEventOf } from './question.ts';

const CARRIES = CARRIES_WALLET.replaceAll('{wallet}', '$wallet');

export async function walletTimeline(
  connection: Connection,
  projectId: string,
  wallet: string,
  sessions: number,
): Promise<WalletTimelineEvent[]> {
  const rows = await rowsOf(
    connection,
    `WITH latest AS (
       SELECT session_id, max(ts) AS last_ts FROM events
        WHERE project_id = $project AND ${CARRIES}
        GROUP BY session_id ORDER BY last_ts DESC, session_id LIMIT $sessions
     )
     SELECT e.id, e.session_id, epoch_ms(e.ts) AS time_ms, e.type, e.path, e.wallet_address, e.wallet_provider,
            e.chain_id, e.tx_id, e.tx_stage, e.tx_hash, e.tx_to, e.selector, e.gas_used::VARCHAR AS gas_used_text,
            e.effective_gas_price::VARCHAR AS effective_gas_price_text, e.sig_stage, e.sig_method, e.error_source,
            e.error_message, e.error_code, e.rpc_method, e.incident_id, e.gas_balance::VARCHAR AS gas_balance_text,
            e.wallet_nonce::VARCHAR AS wallet_nonce_text
       FROM events e JOIN latest l ON l.session_id = e.session_id
      WHERE e.project_id = $project
      ORDER BY l.last_ts DESC, l.session_id, e.ts, e.id
      LIMIT ${TIMELINE_EVENTS}`,
    { project: projectId, wallet, sessions: BigInt(sessions) },
    TimelineRow,
  );
  return rows.map(timelineEventOf);
}
