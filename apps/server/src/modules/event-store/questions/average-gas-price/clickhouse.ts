import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
import { bucketOf, bucketParams, EVENTS, IN_RANGE } from '../../clickhouse/sql.ts';
import { BucketValueRow, bucketMap } from '../../rows.ts';

/**
 * Mean effective gas price (wei) of the transactions mined in each bucket: the receipts (`confirmed` or
 * `reverted` stages) logged then, optionally on one chain. Buckets without a receipt are absent.
 */
export async function averageGasPrice(
  clickhouse: ClickHouse,
  projectId: string,
  range: BucketedRange,
  chainId: number | null,
  filters?: AnalyticsFilters,
) {
  const filter = eventFilter(filters, range);
  const rows = await clickhouse.rows(
    `${withCtes(filter.cte)}
     SELECT ${bucketOf('ts', range)} AS bucket, avg(toFloat64(effective_gas_price)) AS value
       FROM ${EVENTS}
      WHERE ${IN_RANGE}${filter.events} AND type = 'tx' AND effective_gas_price IS NOT NULL
        AND ({chain:Nullable(Int64)} IS NULL OR chain_id = {chain:Nullable(Int64)})
      GROUP BY bucket`,
    { ...bucketParams(projectId, range), ...filter.params, chain: chainId },
    BucketValueRow,
  );
  return bucketMap(rows, (row) => row.value);
}
