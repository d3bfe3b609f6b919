import { z } from 'zod';
import { count, decimalOrNull, numberOrNull, text, textOrNull } from '../../rows.ts';

/** The stored error event behind the incident detail screen; big numbers as decimal strings. */
export type StoredOccurrence = {
  eventId: string;
  timeMs: number;
  userId: string;
  sessionId: string;
  source: string;
  wallet: string | null;
  message: string;
  stack: string | null;
  code: number | null;
  method: string | null;
  gasBalance: string | null;
  walletNonce: string | null;
  chainId: number | null;
  walletProvider: string | null;
  path: string | null;
  browser: string | null;
  os: string | null;
  country: string | null;
  /** The release of the batch it came in (docs/releases.md). */
  release: string | null;
};

/** One stored error event by id (docs/acquisition-and-incidents.md#detail-incident). */
export type OccurrenceByIdQuestion = {
  occurrenceById(projectId: string, eventId: string): Promise<StoredOccurrence | null>;
};

export const OccurrenceRow = z.object({
  id: text,
  time: count,
  user_id: text,
  session_id: text,
  error_source: textOrNull,
  wallet_address: textOrNull,
  error_message: textOrNull,
  error_stack: textOrNull,
  error_code: numberOrNull,
  rpc_method: textOrNull,
  gas_balance: decimalOrNull,
  wallet_nonce: decimalOrNull,
  chain_id: numberOrNull,
  wallet_provider: textOrNull,
  path: textOrNull,
  browser: textOrNull,
  os: textOrNull,
  country: textOrNull,
  release: textOrNull,
});

export const occurrenceOf = (row: z.infer<typeof OccurrenceRow>): StoredOccurrence => ({
  eventId: row.id,
  timeMs: row.time,
  userId: row.user_id,
  sessionId: row.session_id,
  source: String(row.error_source),
  wallet: row.wallet_address,
  message: row.error_message ?? '',
  stack: row.error_stack,
  code: row.error_code,
  method: row.rpc_method,
  gasBalance: row.gas_balance,
  walletNonce: row.wallet_nonce,
  chainId: row.chain_id,
  walletProvider: row.wallet_provider,
  path: row.path,
  browser: row.browser,
  os: row.os,
  country: row.country,
  release: row.release,
});
