import { z } from 'zod';
import { count, numberOrNull, text, textOrNull } from '../../rows.ts';
import type { StoredOccurrence } from '../occurrence-by-id/question.ts';

/** A session event before an occurrence, as stored (the incident service words it). */
export type StoredTrailEvent = {
  timeMs: number;
  type: string;
  /** A custom event's name. */
  eventName: string | null;
  path: string | null;
  title: string | null;
  walletAddress: string | null;
  walletProvider: string | null;
  chainId: number | null;
  txStage: string | null;
  txKind: string | null;
  txHash: string | null;
  txTo: string | null;
  selector: string | null;
  sigStage: string | null;
  sigMethod: string | null;
  errorSource: string | null;
  errorMessage: string | null;
  errorCode: number | null;
  rpcMethod: string | null;
};

/**
 * The session's events before the occurrence (at most TRAIL_LENGTH, within TRAIL_LOOKBACK_MS: domain.ts),
 * oldest first (docs/acquisition-and-incidents.md#detail-incident).
 */
export type SessionTrailQuestion = {
  sessionTrail(projectId: string, occurrence: StoredOccurrence): Promise<StoredTrailEvent[]>;
};

export const TrailRow = z.object({
  time: count,
  type: text,
  event_name: textOrNull,
  path: textOrNull,
  title: textOrNull,
  wallet_address: textOrNull,
  wallet_provider: textOrNull,
  chain_id: numberOrNull,
  tx_stage: textOrNull,
  tx_kind: textOrNull,
  tx_hash: textOrNull,
  tx_to: textOrNull,
  selector: textOrNull,
  sig_stage: textOrNull,
  sig_method: textOrNull,
  error_source: textOrNull,
  error_message: textOrNull,
  error_code: numberOrNull,
  rpc_method: textOrNull,
});

export const trailEventOf = (row: z.infer<typeof TrailRow>): StoredTrailEvent => ({
  timeMs: row.time,
  type: row.type,
  eventName: row.event_name,
  path: row.path,
  title: row.title,
  walletAddress: row.wallet_address,
  walletProvider: row.wallet_provider,
  chainId: row.chain_id,
  txStage: row.tx_stage,
  txKind: row.tx_kind,
  txHash: row.tx_hash,
  txTo: row.tx_to,
  selector: row.selector,
  sigStage: row.sig_stage,
  sigMethod: row.sig_method,
  errorSource: row.error_source,
  errorMessage: row.error_message,
  errorCode: row.error_code,
  rpcMethod: row.rpc_method,
});
