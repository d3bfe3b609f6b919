import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import { TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { bucketOf, bucketParams, type Connection, IN_RANGE, rowsOf, TO } from '../../duckdb/sql.ts';
import { BucketValueRow, bucketMap } from '../../rows.ts';

/**
 * Mean effective gas price (wei) of the transactions mined in each bucket: the receipts (`confirmed` or
 * `reverted` stages) logged then, optionally on one chain. Buckets without a receipt are absent. Filtered,
 * a receipt counts when its transaction's request (first stage, in `transaction_summaries`) was logged in a
 * passing session, wherever the receipt was logged (docs/analytics.md, "Filters").
 */
export async function averageGasPrice(
  connection: Connection,
  projectId: string,
  range: BucketedRange,
  chainId: number | null,
  filters?: AnalyticsFilters,
) {
  const filter = await eventFilter(connection, projectId, range, filters);
  const ofPassingRequests = filter.summaries
    ? ` AND tx_id IN (SELECT tx_id FROM transaction_summaries
          WHERE project_id = $project
            AND requested_at >= make_timestamp(($from::BIGINT - ${TX_STAGE_WINDOW_MS}) * 1000)
            AND requested_at < ${TO}${filter.summaries})`
    : '';
  const rows = await rowsOf(
    connection,
    `${withCtes(filter.cte)}
     SELECT ${bucketOf('ts', range)} AS bucket, avg(effective_gas_price::DOUBLE) AS value
       FROM events
      WHERE ${IN_RANGE}${ofPassingRequests} AND type = 'tx' AND effective_gas_price IS NOT NULL
        AND ($chain::BIGINT IS NULL OR chain_id = $chain::BIGINT)
      GROUP BY bucket`,
    { ...bucketParams(projectId, range), ...filter.params, chain: chainId === null ? null : BigInt(chainId) },
    BucketValueRow,
  );
  return bucketMap(rows, (row) => row.value);
}
