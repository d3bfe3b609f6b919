import { z } from 'zod';
import type { TransactionStageEvent } from '../../analytics-questions.ts';
import type { ClickHouse } from '../client.ts';
import { EVENTS, ms } from '../sql.ts';

const text = z.string().nullable();
const integer = z.coerce.number().nullable();
const StageRow = z.object({
  transaction_id: z.string(),
  tx_stage: text,
  time_ms: z.coerce.number(),
  tx_hash: text,
  tx_from: text,
  wallet_address: text,
  tx_to: text,
  value_text: text,
  selector: text,
  tx_kind: text,
  chain_id: integer,
  gas_limit_text: text,
  gas_price_text: text,
  max_fee_text: text,
  max_priority_fee_text: text,
  nonce_text: text,
  gas_used_text: text,
  effective_gas_price_text: text,
  block_number_text: text,
  error_code: integer,
  error_message: text,
  wallet_provider: text,
  country: text,
  browser: text,
  os: text,
  path: text,
  session_id: text,
});

/** The transaction a hash or an SDK id names ('' for none), from `transaction_keys` (derived-tables.ts). */
const FOUND =
  '(SELECT any(tx_id) FROM transaction_keys WHERE project_id = {project:String} AND key = {key:String})';

/**
 * Every stage event of the transaction with this hash or SDK id, oldest first: its id and the time span of
 * its stages come from `transaction_keys`, so only that span of the project's events is read.
 */
export async function transactionEvents(
  clickhouse: ClickHouse,
  projectId: string,
  hashOrId: string,
): Promise<TransactionStageEvent[]> {
  const rows = await clickhouse.rows(
    `SELECT assumeNotNull(tx_id) AS transaction_id, tx_stage, ${ms('ts')} AS time_ms, tx_hash, tx_from, wallet_address, tx_to,
            toString(tx_value) AS value_text, selector, tx_kind, chain_id, toString(gas_limit) AS gas_limit_text,
            toString(gas_price) AS gas_price_text, toString(max_fee_per_gas) AS max_fee_text,
            toString(max_priority_fee_per_gas) AS max_priority_fee_text, toString(nonce) AS nonce_text,
            toString(gas_used) AS gas_used_text, toString(effective_gas_price) AS effective_gas_price_text,
            toString(block_number) AS block_number_text, error_code, error_message, wallet_provider,
            country, browser, os, path, session_id
       FROM ${EVENTS}
      WHERE project_id = {project:String} AND type = 'tx' AND tx_id = ${FOUND}
        AND ts >= (SELECT min(ts) FROM transaction_keys WHERE project_id = {project:String} AND key = ${FOUND})
        AND ts <= (SELECT max(ts) FROM transaction_keys WHERE project_id = {project:String} AND key = ${FOUND})
      ORDER BY ts, multiIf(tx_stage = 'requested', 0, tx_stage = 'submitted', 1, 2)`,
    { project: projectId, key: hashOrId },
    StageRow,
  );
  return rows.map((row) => ({
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
  }));
}
