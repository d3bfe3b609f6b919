import { type Connection, numberOrNull, rowsOf, textOrNull } from '../../duckdb/sql.ts';
import type { WalletTimelineEvent } from '../../wallet-questions.ts';
import { CARRIES_WALLET } from '../wallet-profile/question.ts';
import { TIMELINE_EVENTS } from './question.ts';

const CARRIES = CARRIES_WALLET.replaceAll('{wallet}', '$wallet');
const big = (value: unknown) => (value === null || value === undefined ? null : String(value));

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
            e.chain_id, e.tx_id, e.tx_stage, e.tx_hash, e.tx_to, e.selector, e.gas_used::VARCHAR AS gas_used,
            e.effective_gas_price::VARCHAR AS effective_gas_price, e.sig_stage, e.sig_method, e.error_source,
            e.error_message, e.error_code, e.rpc_method, e.incident_id, e.gas_balance::VARCHAR AS gas_balance,
            e.wallet_nonce::VARCHAR AS wallet_nonce
       FROM events e JOIN latest l ON l.session_id = e.session_id
      WHERE e.project_id = $project
      ORDER BY l.last_ts DESC, l.session_id, e.ts, e.id
      LIMIT ${TIMELINE_EVENTS}`,
    { project: projectId, wallet, sessions: BigInt(sessions) },
  );
  return rows.map((row) => ({
    eventId: String(row.id),
    sessionId: String(row.session_id),
    timeMs: Number(row.time_ms),
    type: String(row.type),
    path: textOrNull(row.path),
    walletAddress: textOrNull(row.wallet_address),
    walletProvider: textOrNull(row.wallet_provider),
    chainId: numberOrNull(row.chain_id),
    txId: textOrNull(row.tx_id),
    txStage: textOrNull(row.tx_stage),
    txHash: textOrNull(row.tx_hash),
    txTo: textOrNull(row.tx_to),
    selector: textOrNull(row.selector),
    gasUsed: big(row.gas_used),
    effectiveGasPrice: big(row.effective_gas_price),
    sigStage: textOrNull(row.sig_stage),
    sigMethod: textOrNull(row.sig_method),
    errorSource: textOrNull(row.error_source),
    errorMessage: textOrNull(row.error_message),
    errorCode: numberOrNull(row.error_code),
    rpcMethod: textOrNull(row.rpc_method),
    incidentId: textOrNull(row.incident_id),
    gasBalance: big(row.gas_balance),
    walletNonce: big(row.wallet_nonce),
  }));
}
