import { z } from 'zod';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { EVENTS, ms } from '../../clickhouse/sql.ts';
import type { WalletTimelineEvent } from '../../wallet-questions.ts';
import { CARRIES_WALLET } from '../wallet-profile/question.ts';
import { TIMELINE_EVENTS } from './question.ts';

const CARRIES = CARRIES_WALLET.replaceAll('{wallet}', '{wallet:String}');
const text = z.string().nullable();
const integer = z.coerce.number().nullable();
const Row = z.object({
  id: z.string(),
  session_id: z.string(),
  time_ms: z.coerce.number(),
  type: z.string(),
  path: text,
  wallet_address: text,
  wallet_provider: text,
  chain_id: integer,
  tx_id: text,
  tx_stage: text,
  tx_hash: text,
  tx_to: text,
  selector: text,
  gas_used_text: text,
  effective_gas_price_text: text,
  sig_stage: text,
  sig_method: text,
  error_source: text,
  error_message: text,
  error_code: integer,
  rpc_method: text,
  incident_id: text,
  gas_balance_text: text,
  wallet_nonce_text: text,
});

export async function walletTimeline(
  clickhouse: ClickHouse,
  projectId: string,
  wallet: string,
  sessions: number,
): Promise<WalletTimelineEvent[]> {
  const rows = await clickhouse.rows(
    `WITH latest AS (
       SELECT session_id AS l_session, max(ts) AS l_last FROM ${EVENTS}
        WHERE project_id = {project:String} AND ${CARRIES}
        GROUP BY session_id ORDER BY l_last DESC, l_session LIMIT {sessions:Int64}
     )
     SELECT id, session_id, ${ms('ts')} AS time_ms, type, path, wallet_address, wallet_provider, chain_id,
            tx_id, tx_stage, tx_hash, tx_to, selector, toString(gas_used) AS gas_used_text,
            toString(effective_gas_price) AS effective_gas_price_text, sig_stage, sig_method, error_source,
            error_message, error_code, rpc_method, incident_id, toString(gas_balance) AS gas_balance_text,
            toString(wallet_nonce) AS wallet_nonce_text
       FROM ${EVENTS} INNER JOIN latest ON l_session = session_id
      WHERE project_id = {project:String}
      ORDER BY l_last DESC, l_session, ts, id
      LIMIT ${TIMELINE_EVENTS}`,
    { project: projectId, wallet, sessions },
    Row,
  );
  return rows.map((row) => ({
    eventId: row.id,
    sessionId: row.session_id,
    timeMs: row.time_ms,
    type: row.type,
    path: row.path,
    walletAddress: row.wallet_address,
    walletProvider: row.wallet_provider,
    chainId: row.chain_id,
    txId: row.tx_id,
    txStage: row.tx_stage,
    txHash: row.tx_hash,
    txTo: row.tx_to,
    selector: row.selector,
    gasUsed: row.gas_used_text,
    effectiveGasPrice: row.effective_gas_price_text,
    sigStage: row.sig_stage,
    sigMethod: row.sig_method,
    errorSource: row.error_source,
    errorMessage: row.error_message,
    errorCode: row.error_code,
    rpcMethod: row.rpc_method,
    incidentId: row.incident_id,
    gasBalance: row.gas_balance_text,
    walletNonce: row.wallet_nonce_text,
  }));
}
