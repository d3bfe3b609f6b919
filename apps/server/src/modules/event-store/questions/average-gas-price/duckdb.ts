import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { bucketOf, bucketParams, type Connection, IN_RANGE, rowsOf } from '../../duckdb/sql.ts';
import { BucketValueRow, bucketMap } from '../../rows.ts';

/**
 * Mean effective gas price (wei) of the transactions mined in each bucket: the receipts (`confirmed` or
 * `reverted` stages) logged then, optionally on one chain. Buckets without a receipt are absent.
 */
export async function averageGasPrice(
  connection: Connection,
  projectId: string,
  range: BucketedRange,
  chainId: number | null,
  filters?: AnalyticsFilters,
) {
  const filter = await eventFilter(connection, projectId, range, filters);
  const rows = await rowsOf(
    connection,
    `${withCtes(filter.cte)}
     SELECT ${bucketOf('ts', range)} AS bucket, avg(effective_gas_price::DOUBLE) AS value
       FROM events
      WHERE ${IN_RANGE}${filter.events} AND type = 'tx' AND effective_gas_price IS NOT NULL
        AND ($chain::BIGINT IS NULL OR chain_id = $chain::BIGINT)
      GROUP BY bucket`,
    { ...bucketParams(projectId, range), ...filter.params, chain: chainId === null ? null : BigInt(chainId) },
    BucketValueRow,
  );
  return bucketMap(rows, (row) => row.value);
}
