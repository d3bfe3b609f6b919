import { z } from 'zod';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { ms } from '../../clickhouse/sql.ts';
import { STAGE_RANK } from '../../domain.ts';
import { StageRow, stageEventOf, type TransactionStageEvent } from './question.ts';

const SpanRow = z.object({
  transaction_id: z.string(),
  first_ms: z.coerce.number(),
  last_ms: z.coerce.number(),
});

/**
 * The transaction a hash or an SDK id names, and the time span of its stages, from `transaction_keys`
 * (derived-tables.ts): a stage's row under the transaction's own id carries its time.
 */
const SPAN = `SELECT key AS transaction_id, ${ms('min(ts)')} AS first_ms, ${ms('max(ts)')} AS last_ms
  FROM transaction_keys
 WHERE project_id = {project:String}
   AND key = (SELECT any(tx_id) FROM transaction_keys WHERE project_id = {project:String} AND key = {key:String})
 GROUP BY key`;

/**
 * Every stage event of the transaction with this hash or SDK id, oldest first. Two short queries (ADR 044):
 * the transaction and its span from `transaction_keys`, then only that span of the project's events. The
 * events are read without FINAL, whose merge of every part's granule over all the columns asked cost about
 * 25 ms of the 110 the one-query form took on chdb; a copy of a stage loaded twice (same `ts` and `id`) is
 * dropped by LIMIT 1 BY instead, keeping the copy received last, as FINAL keeps the copy inserted last.
 */
export async function transactionEvents(
  clickhouse: ClickHouse,
  projectId: string,
  hashOrId: string,
): Promise<TransactionStageEvent[]> {
  const [span] = await clickhouse.rows(SPAN, { project: projectId, key: hashOrId }, SpanRow);
  if (!span) return [];
  const rows = await clickhouse.rows(
    `SELECT tx_id AS transaction_id, tx_stage, ${ms('ts')} AS time_ms, tx_hash, tx_from, wallet_address, tx_to,
            toString(tx_value) AS value_text, selector, tx_kind, chain_id, toString(gas_limit) AS gas_limit_text,
            toString(gas_price) AS gas_price_text, toString(max_fee_per_gas) AS max_fee_text,
            toString(max_priority_fee_per_gas) AS max_priority_fee_text, toString(nonce) AS nonce_text,
            toString(gas_used) AS gas_used_text, toString(effective_gas_price) AS effective_gas_price_text,
            toString(block_number) AS block_number_text, error_code, error_message, wallet_provider,
            country, browser, os, path, session_id
       FROM events
      WHERE project_id = {project:String} AND type = 'tx' AND tx_id = {transaction:String}
        AND ts >= fromUnixTimestamp64Milli({first:Int64}, 'UTC') AND ts <= fromUnixTimestamp64Milli({last:Int64}, 'UTC')
      ORDER BY ts, ${STAGE_RANK}, id, received_at DESC
      LIMIT 1 BY ts, id`,
    { project: projectId, transaction: span.transaction_id, first: span.first_ms, last: span.last_ms },
    StageRow,
  );
  return rows.map(stageEventOf);
}
