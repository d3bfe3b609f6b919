import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, filteredTransactionsCte, withCtes } from '../../clickhouse/event-filter.ts';
import { IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
import { localDateColumn } from '../../local-days.ts';
import type { FailedTransactionCost } from '../../wallet-questions.ts';
import { mergeChains, result } from './question.ts';

/**
 * In one read of the range's receipts and refusals in `transaction_receipts` (ADR 129: each `confirmed`
 * and `reverted` stage with a fee, with that fee in wei, and each `failed` stage; with the Analytics
 * filters, of the transactions whose request's session passes: `kept`, docs/wallets.md): each receipt
 * hash's latest report logged in the range (its kind that report's), once per (transaction, receipt key),
 * and its failed stages, once per (transaction, chain). The failed rows' count per chain is the number of distinct failed transactions
 * on it, as a distinct count of their stages grouped by chain is; the filtered transactions are found
 * once (ClickHouse computes a CTE again wherever it is named, ADR 086).
 */
const stagesCte = (kept: string) => `stages AS (
  SELECT tx_id AS r_tx, tx_stage AS r_stage, ts AS r_ts, chain_id AS r_chain, tx_to AS r_to,
         selector AS r_selector, fee AS r_fee
    FROM transaction_receipts
   WHERE ${IN_RANGE}${kept}
   ORDER BY ts DESC, id DESC
   LIMIT 1 BY tx_id, tx_stage = 'failed', if(tx_stage = 'failed', chain_id, NULL), receipt_key
)`;

const chainId = z.coerce.number().nullable();
/**
 * The reverted receipts per day (of the project's zone), chain, contract and function, the confirmed ones
 * per chain (day '', no contract or function), the failed stages per chain; the fees in wei as text.
 */
const GroupRow = z.object({
  day: z.string(),
  chain: chainId,
  contract: z.string().nullable(),
  fn: z.string().nullable(),
  stage: z.string(),
  receipts: z.coerce.number(),
  fee: z.string(),
});

export async function failedTransactionCost(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  filters?: AnalyticsFilters,
  timeZone?: string,
): Promise<FailedTransactionCost> {
  const filter = eventFilter(filters, range);
  const transactions = filter.cte ? filteredTransactionsCte(range) : { cte: '', params: {} };
  const params = { ...rangeParams(projectId, range), ...filter.params, ...transactions.params };
  const kept = filter.cte ? ' AND tx_id IN (SELECT tx_id FROM filtered_transactions)' : '';
  const ctes = withCtes(filter.cte, transactions.cte, stagesCte(kept));
  // Days of the project's zone: the local day's number, made a date below (docs/wallets.md).
  const local = localDateColumn(
    range,
    timeZone,
    'toUnixTimestamp64Milli(r_ts)',
    (a, b) => `intDiv(${a}, ${b})`,
  );
  // From the one read: the reverted receipts per day, chain, contract and function (the rows), the
  // confirmed ones per chain alone (only the chains' sums read them: a row per day, contract and function
  // was most of the answer's rows, 20,974 of them on the largest bench project's 30 days against 3,318),
  // and the failed stages per chain.
  const rows = await clickhouse.rows(
    `${ctes}
     SELECT if(r_stage != 'reverted', '', toString(${local ? local.sql : "toDate(r_ts, 'UTC')"})) AS day,
            r_chain AS chain, if(r_stage != 'reverted', NULL, r_to) AS contract,
            if(r_stage != 'reverted', NULL, r_selector) AS fn,
            r_stage AS stage, count() AS receipts, toString(sum(r_fee)) AS fee
       FROM stages
      GROUP BY day, chain, contract, fn, stage`,
    params,
    GroupRow,
  );
  const groups = rows.filter((row) => row.stage !== 'failed');
  const refusals = rows
    .filter((row) => row.stage === 'failed')
    .map((row) => ({ chain: row.chain, failed: row.receipts }));
  const chains = new Map<number | null, { paid: bigint; burned: bigint; reverted: number }>();
  for (const row of groups) {
    const chain = chains.get(row.chain) ?? { paid: 0n, burned: 0n, reverted: 0 };
    chain.paid += BigInt(row.fee);
    if (row.stage === 'reverted') {
      chain.burned += BigInt(row.fee);
      chain.reverted += row.receipts;
    }
    chains.set(row.chain, chain);
  }
  return result(
    mergeChains(
      [...chains].map(([chainId, chain]) => ({
        chainId,
        paid: chain.paid.toString(),
        burned: chain.burned.toString(),
        reverted: chain.reverted,
      })),
      refusals.map((row) => ({ chainId: row.chain, failed: row.failed })),
    ),
    groups
      .filter((row) => row.stage === 'reverted')
      .map((row) => ({
        day: local ? local.dateOf(row.day) : row.day,
        chainId: row.chain,
        contract: row.contract,
        selector: row.fn,
        reverted: row.receipts,
        gasBurnedWei: row.fee,
      })),
  );
}
