import { STAGE_RANK } from '../../domain.ts';
import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import { StageRow, stageEventOf, type TransactionStageEvent } from './question.ts';

/** Every stage event of the transaction with this hash or SDK id, oldest first. */
export async function transactionEvents(
  connection: Connection,
  projectId: string,
  hashOrId: string,
): Promise<TransactionStageEvent[]> {
  const rows = await rowsOf(
    connection,
    `SELECT tx_id AS transaction_id, tx_stage, epoch_ms(ts) AS time_ms, tx_hash, tx_from, wallet_address, tx_to,
            tx_value::VARCHAR AS value_text, selector, tx_kind, chain_id, gas_limit::VARCHAR AS gas_limit_text,
            gas_price::VARCHAR AS gas_price_text, max_fee_per_gas::VARCHAR AS max_fee_text,
            max_priority_fee_per_gas::VARCHAR AS max_priority_fee_text, nonce::VARCHAR AS nonce_text,
            gas_used::VARCHAR AS gas_used_text, effective_gas_price::VARCHAR AS effective_gas_price_text,
            block_number::VARCHAR AS block_number_text, error_code, error_message, wallet_provider,
            country, browser, os, path, session_id
       FROM events
      WHERE project_id = $project AND type = 'tx'
        AND tx_id = (SELECT tx_id FROM events
                      WHERE project_id = $project AND type = 'tx' AND (tx_hash = $key OR tx_id = $key)
                      LIMIT 1)
      ORDER BY ts, ${STAGE_RANK}, id`,
    { project: projectId, key: hashOrId },
    StageRow,
  );
  return rows.map(stageEventOf);
}
