import type { DuckDBConnection } from '@duckdb/node-api';
import type { TransactionStageEvent } from '../../analytics-questions.ts';
import { STAGE_RANK } from '../../domain.ts';
import { numberOrNull, rowsOf, textOrNull } from '../../duckdb/sql.ts';

/** Every stage event of the transaction with this hash or SDK id, oldest first. */
export async function transactionEvents(
  connection: DuckDBConnection,
  projectId: string,
  hashOrId: string,
): Promise<TransactionStageEvent[]> {
  const rows = await rowsOf(
    connection,
    `SELECT tx_id, tx_stage, epoch_ms(ts) AS time_ms, tx_hash, tx_from, wallet_address, tx_to,
            tx_value::VARCHAR AS tx_value, selector, tx_kind, chain_id, gas_limit::VARCHAR AS gas_limit,
            gas_price::VARCHAR AS gas_price, max_fee_per_gas::VARCHAR AS max_fee_per_gas,
            max_priority_fee_per_gas::VARCHAR AS max_priority_fee_per_gas, nonce::VARCHAR AS nonce,
            gas_used::VARCHAR AS gas_used, effective_gas_price::VARCHAR AS effective_gas_price,
            block_number::VARCHAR AS block_number, error_code, error_message, wallet_provider,
            country, browser, os, path, session_id
       FROM events
      WHERE project_id = $project AND type = 'tx'
        AND tx_id = (SELECT tx_id FROM events
                      WHERE project_id = $project AND type = 'tx' AND (tx_hash = $key OR tx_id = $key)
                      LIMIT 1)
      ORDER BY ts, ${STAGE_RANK}`,
    { project: projectId, key: hashOrId },
  );
  return rows.map((row) => ({
    txId: String(row.tx_id),
    stage: textOrNull(row.tx_stage),
    timeMs: Number(row.time_ms),
    hash: textOrNull(row.tx_hash),
    from: textOrNull(row.tx_from),
    wallet: textOrNull(row.wallet_address),
    to: textOrNull(row.tx_to),
    value: textOrNull(row.tx_value),
    selector: textOrNull(row.selector),
    kind: textOrNull(row.tx_kind),
    chainId: numberOrNull(row.chain_id),
    gasLimit: textOrNull(row.gas_limit),
    gasPrice: textOrNull(row.gas_price),
    maxFeePerGas: textOrNull(row.max_fee_per_gas),
    maxPriorityFeePerGas: textOrNull(row.max_priority_fee_per_gas),
    nonce: textOrNull(row.nonce),
    gasUsed: textOrNull(row.gas_used),
    effectiveGasPrice: textOrNull(row.effective_gas_price),
    blockNumber: textOrNull(row.block_number),
    errorCode: numberOrNull(row.error_code),
    errorMessage: textOrNull(row.error_message),
    walletProvider: textOrNull(row.wallet_provider),
    country: textOrNull(row.country),
    browser: textOrNull(row.browser),
    os: textOrNull(row.os),
    path: textOrNull(row.path),
    sessionId: textOrNull(row.session_id),
  }));
}
