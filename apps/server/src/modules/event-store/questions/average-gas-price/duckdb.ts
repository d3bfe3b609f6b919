import type { BucketedRange } from '../../../../reading/time-range.ts';
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
) {
  const rows = await rowsOf(
    connection,
    `SELECT ${bucketOf('ts', range)} AS bucket, avg(effective_gas_price::DOUBLE) AS value
       FROM events
      WHERE ${IN_RANGE} AND type = 'tx' AND effective_gas_price IS NOT NULL
        AND ($chain::BIGINT IS NULL OR chain_id = $chain::BIGINT)
      GROUP BY bucket`,
    { ...bucketParams(projectId, range), chain: chainId === null ? null : BigInt(chainId) },
    BucketValueRow,
  );
  return bucketMap(rows, (row) => row.value);
}
