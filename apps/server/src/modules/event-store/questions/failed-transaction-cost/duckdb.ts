import type { TimeRange } from '../../../../reading/time-range.ts';
import {
  type Connection,
  IN_RANGE,
  numberOrNull,
  rangeParams,
  rowsOf,
  textOrNull,
} from '../../duckdb/sql.ts';
import type { FailedTransactionCost } from '../../wallet-questions.ts';
import { mergeChains, result } from './question.ts';

/** Each transaction's latest receipt of each kind logged in the range, with its fee in wei. */
const RECEIPTS = `receipts AS (
  SELECT tx_id, tx_stage, ts, chain_id, tx_to, selector, gas_used * effective_gas_price AS fee
    FROM events
   WHERE ${IN_RANGE} AND type = 'tx' AND tx_id IS NOT NULL AND tx_stage IN ('confirmed', 'reverted')
     AND gas_used IS NOT NULL AND effective_gas_price IS NOT NULL
 QUALIFY row_number() OVER (PARTITION BY tx_id, tx_stage ORDER BY ts DESC, id DESC) = 1
)`;

export async function failedTransactionCost(
  connection: Connection,
  projectId: string,
  range: TimeRange,
): Promise<FailedTransactionCost> {
  const params = rangeParams(projectId, range);
  const chains = await rowsOf(
    connection,
    `WITH ${RECEIPTS}
     SELECT chain_id, sum(fee)::VARCHAR AS paid,
            coalesce(sum(fee) FILTER (WHERE tx_stage = 'reverted'), 0)::VARCHAR AS burned,
            count(*) FILTER (WHERE tx_stage = 'reverted') AS reverted
       FROM receipts GROUP BY chain_id`,
    params,
  );
  const refusals = await rowsOf(
    connection,
    `SELECT chain_id, count(DISTINCT tx_id) AS failed
       FROM events
      WHERE ${IN_RANGE} AND type = 'tx' AND tx_id IS NOT NULL AND tx_stage = 'failed'
      GROUP BY chain_id`,
    params,
  );
  const rows = await rowsOf(
    connection,
    `WITH ${RECEIPTS}
     SELECT strftime(ts, '%Y-%m-%d') AS day, chain_id, tx_to, selector, count(*) AS reverted,
            sum(fee)::VARCHAR AS burned
       FROM receipts WHERE tx_stage = 'reverted'
      GROUP BY ALL`,
    params,
  );
  return result(
    mergeChains(
      chains.map((row) => ({
        chainId: numberOrNull(row.chain_id),
        paid: String(row.paid),
        burned: String(row.burned),
        reverted: Number(row.reverted),
      })),
      refusals.map((row) => ({ chainId: numberOrNull(row.chain_id), failed: Number(row.failed) })),
    ),
    rows.map((row) => ({
      day: String(row.day),
      chainId: numberOrNull(row.chain_id),
      contract: textOrNull(row.tx_to),
      selector: textOrNull(row.selector),
      reverted: Number(row.reverted),
      gasBurnedWei: String(row.burned),
    })),
  );
}
