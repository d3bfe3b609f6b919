import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, FILTERED_TRANSACTIONS_CTE, withCtes } from '../../clickhouse/event-filter.ts';
import { RECEIPT_HAS_FEE as HAS_FEE } from '../../clickhouse/question-sql.ts';
import { EVENT_ROWS, IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
import { localDateColumn } from '../../local-days.ts';
import type { FailedTransactionCost } from '../../wallet-questions.ts';
import { mergeChains, RefusalRow, result } from './question.ts';

/**
 * Each transaction's latest receipt of each kind logged in the range, with its fee in wei; with the
 * Analytics filters, of the transactions whose request's session passes (`kept`, docs/wallets.md).
 */
const receiptsCte = (kept: string) => `receipts AS (
  SELECT tx_id AS r_tx, tx_stage AS r_stage, ts AS r_ts, chain_id AS r_chain, tx_to AS r_to,
         selector AS r_selector, toInt256(assumeNotNull(gas_used)) * toInt256(assumeNotNull(effective_gas_price)) AS r_fee
    FROM ${EVENT_ROWS}
   WHERE ${IN_RANGE} AND type = 'tx' AND tx_id IS NOT NULL AND tx_stage IN ('confirmed', 'reverted')
     AND ${HAS_FEE}${kept}
   ORDER BY ts DESC, id DESC
   LIMIT 1 BY tx_id, tx_stage
)`;

const chainId = z.coerce.number().nullable();
const ChainRow = z.object({
  chain: chainId,
  paid: z.string(),
  burned: z.string(),
  reverted: z.coerce.number(),
});
const CostRow = z.object({
  day: z.string(),
  chain: chainId,
  contract: z.string().nullable(),
  fn: z.string().nullable(),
  reverted: z.coerce.number(),
  burned: z.string(),
});

export async function failedTransactionCost(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  filters?: AnalyticsFilters,
  timeZone?: string,
): Promise<FailedTransactionCost> {
  const filter = eventFilter(filters);
  const params = { ...rangeParams(projectId, range), ...filter.params };
  const kept = filter.cte ? ' AND tx_id IN (SELECT tx_id FROM filtered_transactions)' : '';
  const RECEIPTS = receiptsCte(kept);
  const ctes = (...more: string[]) =>
    withCtes(filter.cte, filter.cte ? FILTERED_TRANSACTIONS_CTE : '', ...more);
  // Days of the project's zone: the local day's number, made a date below (docs/wallets.md).
  const local = localDateColumn(
    range,
    timeZone,
    'toUnixTimestamp64Milli(r_ts)',
    (a, b) => `intDiv(${a}, ${b})`,
  );
  const [chains, refusals, rows] = await Promise.all([
    clickhouse.rows(
      `${ctes(RECEIPTS)}
       SELECT r_chain AS chain, toString(sum(r_fee)) AS paid, toString(sumIf(r_fee, r_stage = 'reverted')) AS burned,
              countIf(r_stage = 'reverted') AS reverted
         FROM receipts GROUP BY r_chain`,
      params,
      ChainRow,
    ),
    clickhouse.rows(
      `${ctes()}
       SELECT chain_id AS chain, uniqExact(tx_id) AS failed
         FROM ${EVENT_ROWS}
        WHERE ${IN_RANGE} AND type = 'tx' AND tx_id IS NOT NULL AND tx_stage = 'failed'${kept}
        GROUP BY chain_id`,
      params,
      RefusalRow,
    ),
    clickhouse.rows(
      `${ctes(RECEIPTS)}
       SELECT toString(${local ? local.sql : "toDate(r_ts, 'UTC')"}) AS day, r_chain AS chain, r_to AS contract, r_selector AS fn,
              count() AS reverted, toString(sum(r_fee)) AS burned
         FROM receipts WHERE r_stage = 'reverted'
        GROUP BY day, r_chain, r_to, r_selector`,
      params,
      CostRow,
    ),
  ]);
  return result(
    mergeChains(
      chains.map((row) => ({
        chainId: row.chain,
        paid: row.paid,
        burned: row.burned,
        reverted: row.reverted,
      })),
      refusals.map((row) => ({ chainId: row.chain, failed: row.failed })),
    ),
    rows.map((row) => ({
      day: local ? local.dateOf(row.day) : row.day,
      chainId: row.chain,
      contract: row.contract,
      selector: row.fn,
      reverted: row.reverted,
      gasBurnedWei: row.burned,
    })),
  );
}
