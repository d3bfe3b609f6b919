import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange, TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { eventFilter } from '../../clickhouse/event-filter.ts';
import { bucketOf, bucketParams, FROM } from '../../clickhouse/sql.ts';
import { walletsSeenBefore } from '../../clickhouse/wallet-firsts.ts';
import { BucketValueRow, bucketMap } from '../../rows.ts';
import { connectedCte } from '../connected-wallets/clickhouse.ts';

/**
 * The connected wallets of the range (`connected`, connected-wallets.ts) and `seen_before`, the wallets
 * some event of the project carried before `from`: those whose first event ever lies before `from`
 * (`wallet_firsts`, ADR 046), one row per wallet of the project instead of every wallet-day before the
 * range (ADR 031: 36–39 ms of chdb CPU for the bench's largest project, 19–20 with `wallet_firsts`).
 * `seen_before` is not narrowed to the connected wallets: ClickHouse computes a CTE again wherever it is
 * named, and the narrowing cost a second `connected`.
 */
export function connectedAndSeenBefore(
  range: TimeRange,
  filters?: AnalyticsFilters,
): { sql: string; params: Params } {
  const connected = connectedCte(range, eventFilter(filters, range));
  return {
    sql: `${connected.sql},
     seen_before AS (${walletsSeenBefore(FROM)})`,
    params: connected.params,
  };
}

/** Wallets connected in the range that no event carried before `from`, in the bucket of their first connection. */
export async function newWallets(
  clickhouse: ClickHouse,
  projectId: string,
  range: BucketedRange,
  filters?: AnalyticsFilters,
) {
  const wallets = connectedAndSeenBefore(range, filters);
  const rows = await clickhouse.rows(
    `WITH ${wallets.sql}
     SELECT ${bucketOf('first_at', range)} AS bucket, count() AS value
       FROM connected
      WHERE wallet NOT IN (SELECT wallet FROM seen_before)
      GROUP BY bucket`,
    { ...bucketParams(projectId, range), ...wallets.params },
    BucketValueRow,
  );
  return bucketMap(rows, (row) => row.value);
}
