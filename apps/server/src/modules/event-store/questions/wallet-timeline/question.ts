import { z } from 'zod';
import { count, numberOrNull, text, textOrNull } from '../../rows.ts';
import type { WalletTimelineEvent } from '../../wallet-questions.ts';

/**
 * A wallet's sessions as a timeline (docs/wallets.md, "The wallet page"): its latest sessions (those with
 * an event carrying it, by their latest such event), and every event of each, whatever it carries.
 */

/** At most this many events in all (the latest sessions' first ones are kept). */
export const TIMELINE_EVENTS = 2000;

/** A timeline event as both engines answer it; big numbers as `…_text` (no alias equals a column's name). */
export const TimelineRow = z.object({
  id: text,
  session_id: text,
  time_ms: count,
  type: text,
  path: textOrNull,
  wallet_address: textOrNull,
  wallet_provider: textOrNull,
  chain_id: numberOrNull,
  tx_id: textOrNull,
  tx_stage: textOrNull,
  tx_hash: textOrNull,
  tx_to: textOrNull,
  selector: textOrNull,
  gas_used_text: textOrNull,
  effective_gas_price_text: textOrNull,
  sig_stage: textOrNull,
  sig_method: textOrNull,
  error_source: textOrNull,
  error_message: textOrNull,
  error_code: numberOrNull,
  rpc_method: textOrNull,
  incident_id: textOrNull,
  gas_balance_text: textOrNull,
  wallet_nonce_text: textOrNull,
});

export const timelineEventOf = (row: z.infer<typeof TimelineRow>): WalletTimelineEvent => ({
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
});
