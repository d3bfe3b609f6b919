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
  // One pass over the receipts: per day, chain, contract, function and kind; the chains' sums from them.
  const groups = await rowsOf(
    connection,
    `WITH ${RECEIPTS}
     SELECT strftime(ts, '%Y-%m-%d') AS day, chain_id, tx_to, selector, tx_stage, count(*) AS receipts,
            sum(fee)::VARCHAR AS fee
       FROM receipts
      GROUP BY ALL`,
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
  const chains = new Map<number | null, { paid: bigint; burned: bigint; reverted: number }>();
  for (const row of groups) {
    const chainId = numberOrNull(row.chain_id);
    const chain = chains.get(chainId) ?? { paid: 0n, burned: 0n, reverted: 0 };
    const fee = BigInt(String(row.fee));
    chain.paid += fee;
    if (row.tx_stage === 'reverted') {
      chain.burned += fee;
      chain.reverted += Number(row.receipts);
    }
    chains.set(chainId, chain);
  }
  const rows = groups.filter((row) => row.tx_stage === 'reverted');
  return result(
    mergeChains(
      [...chains].map(([chainId, chain]) => ({
        chainId,
        paid: chain.paid.toString(),
        burned: chain.burned.toString(),
        reverted: chain.reverted,
      })),
      refusals.map((row) => ({ chainId: numberOrNull(row.chain_id), failed: Number(row.failed) })),
    ),
    rows.map((row) => ({
      day: String(row.day),
      chainId: numberOrNull(row.chain_id),
      contract: textOrNull(row.tx_to),
      selector: textOrNull(row.selector),
      reverted: Number(row.receipts),
      gasBurnedWei: String(row.fee),
    })),
  );
}
