import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, filteredTransactionsCte, withCtes } from '../../clickhouse/event-filter.ts';
import { bucketOf, bucketParams, EVENTS, IN_RANGE } from '../../clickhouse/sql.ts';
import { BucketValueRow, bucketMap } from '../../rows.ts';

/**
 * Mean effective gas price (wei) of the transactions mined in each bucket: the receipts (`confirmed` or
 * `reverted` stages) logged then, optionally on one chain. Buckets without a receipt are absent. Filtered,
 * a receipt counts when its transaction's request was logged in a passing session (filteredTransactionsCte),
 * wherever the receipt was logged (docs/analytics.md, "Filters").
 */
export async function averageGasPrice(
  clickhouse: ClickHouse,
  projectId: string,
  range: BucketedRange,
  chainId: number | null,
  filters?: AnalyticsFilters,
) {
  const filter = eventFilter(filters, range);
  const requests = filter.cte ? filteredTransactionsCte(range) : { cte: '', params: {} };
  const rows = await clickhouse.rows(
    `${withCtes(filter.cte, requests.cte)}
     SELECT ${bucketOf('ts', range)} AS bucket, avg(toFloat64(effective_gas_price)) AS value
       FROM ${EVENTS}
      WHERE ${IN_RANGE}${filter.cte ? ' AND tx_id IN (SELECT tx_id FROM filtered_transactions)' : ''}
        AND type = 'tx' AND effective_gas_price IS NOT NULL
        AND ({chain:Nullable(Int64)} IS NULL OR chain_id = {chain:Nullable(Int64)})
      GROUP BY bucket`,
    { ...bucketParams(projectId, range), ...filter.params, ...requests.params, chain: chainId },
    BucketValueRow,
  );
  return bucketMap(rows, (row) => row.value);
}
