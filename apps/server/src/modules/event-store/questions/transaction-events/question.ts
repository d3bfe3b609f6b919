import { z } from 'zod';
import { count, numberOrNull, text, textOrNull } from '../../rows.ts';

/** One stage event of a transaction; big numbers as decimal strings. */
export type TransactionStageEvent = {
  txId: string;
  stage: string | null;
  timeMs: number;
  hash: string | null;
  from: string | null;
  wallet: string | null;
  to: string | null;
  value: string | null;
  selector: string | null;
  kind: string | null;
  chainId: number | null;
  gasLimit: string | null;
  gasPrice: string | null;
  maxFeePerGas: string | null;
  maxPriorityFeePerGas: string | null;
  nonce: string | null;
  gasUsed: string | null;
  effectiveGasPrice: string | null;
  blockNumber: string | null;
  errorCode: number | null;
  errorMessage: string | null;
  walletProvider: string | null;
  country: string | null;
  browser: string | null;
  os: string | null;
  path: string | null;
  sessionId: string | null;
};

/**
 * Every stage event of the transaction with this hash (lower case) or SDK id, oldest first (by time, then
 * STAGE_RANK, domain.ts, then event id: the last listed is its status)
 * (docs/analytics.md#transaction-history-and-a-single-transaction).
 */
export type TransactionEventsQuestion = {
  transactionEvents(projectId: string, hashOrId: string): Promise<TransactionStageEvent[]>;
};

/** Big numbers as `…_text` (cast to text by the SQL); no alias equals a column's name (ClickHouse). */
export const StageRow = z.object({
  transaction_id: text,
  tx_stage: textOrNull,
  time_ms: count,
  tx_hash: textOrNull,
  tx_from: textOrNull,
  wallet_address: textOrNull,
  tx_to: textOrNull,
  value_text: textOrNull,
  selector: textOrNull,
  tx_kind: textOrNull,
  chain_id: numberOrNull,
  gas_limit_text: textOrNull,
  gas_price_text: textOrNull,
  max_fee_text: textOrNull,
  max_priority_fee_text: textOrNull,
  nonce_text: textOrNull,
  gas_used_text: textOrNull,
  effective_gas_price_text: textOrNull,
  block_number_text: textOrNull,
  error_code: numberOrNull,
  error_message: textOrNull,
  wallet_provider: textOrNull,
  country: textOrNull,
  browser: textOrNull,
  os: textOrNull,
  path: textOrNull,
  session_id: textOrNull,
});

export const stageEventOf = (row: z.infer<typeof StageRow>): TransactionStageEvent => ({
  txId: row.transaction_id,
  stage: row.tx_stage,
  timeMs: row.time_ms,
  hash: row.tx_hash,
  from: row.tx_from,
  wallet: row.wallet_address,
  to: row.tx_to,
  value: row.value_text,
  selector: row.selector,
  kind: row.tx_kind,
  chainId: row.chain_id,
  gasLimit: row.gas_limit_text,
  gasPrice: row.gas_price_text,
  maxFeePerGas: row.max_fee_text,
  maxPriorityFeePerGas: row.max_priority_fee_text,
  nonce: row.nonce_text,
  gasUsed: row.gas_used_text,
  effectiveGasPrice: row.effective_gas_price_text,
  blockNumber: row.block_number_text,
  errorCode: row.error_code,
  errorMessage: row.error_message,
  walletProvider: row.wallet_provider,
  country: row.country,
  browser: row.browser,
  os: row.os,
  path: row.path,
  sessionId: row.session_id,
});
