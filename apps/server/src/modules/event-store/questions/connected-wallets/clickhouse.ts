import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange, TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { dayParts } from '../../clickhouse/day-parts.ts';
import { type EventFilter, eventFilter, NO_FILTER } from '../../clickhouse/event-filter.ts';
import { bucketOf, bucketParams, IN_RANGE } from '../../clickhouse/sql.ts';
import { BucketValueRow, bucketMap } from '../../rows.ts';

/**
 * `connected`: each wallet connected in the range, with `first_at`, its first connection in the range.
 * Whole UTC days from `wallet_days` (each day's first connection: their minimum is the range's), the
 * partial days at the ends from the connections among `events` (docs/decisions/031). Minima both: an event
 * stored twice changes neither, so neither side reads FINAL.
 */
export function connectedCte(
  range: TimeRange,
  filter: EventFilter = NO_FILTER,
): { sql: string; params: Params } {
  if (filter.cte)
    // `wallet_days` keeps no session: the filtered question reads the connections among the events (ADR 074).
    return {
      sql: `${filter.cte},
     connected AS (
       SELECT assumeNotNull(wallet_address) AS wallet, min(ts) AS first_at
         FROM events
        WHERE ${IN_RANGE}${filter.events} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
        GROUP BY wallet
     )`,
      params: filter.params,
    };
  const parts = dayParts(range, 'connected_');
  const selects: string[] = [];
  if (parts.wholeDays)
    selects.push(`SELECT wallet, assumeNotNull(first_connected) AS connected_at
                 FROM wallet_days
                WHERE project_id = {project:String} AND ${parts.wholeDays}
                  AND first_connected IS NOT NULL`);
  if (parts.partialDays)
    selects.push(`SELECT assumeNotNull(wallet_address) AS wallet, ts AS connected_at
                 FROM events
                WHERE project_id = {project:String} AND ${parts.partialDays}
                  AND type = 'wallet_connected' AND wallet_address IS NOT NULL`);
  return {
    sql: `connected AS (
       SELECT wallet, min(connected_at) AS first_at
         FROM (${selects.join('\n               UNION ALL\n               ')})
        GROUP BY wallet
     )`,
    params: parts.params,
  };
}

/** Distinct wallets connected in the range, each counted in the bucket of its first connection in the range. */
export async function connectedWallets(
  clickhouse: ClickHouse,
  projectId: string,
  range: BucketedRange,
  filters?: AnalyticsFilters,
) {
  const connected = connectedCte(range, eventFilter(filters, range));
  const rows = await clickhouse.rows(
    `WITH ${connected.sql}
     SELECT ${bucketOf('first_at', range)} AS bucket, count() AS value FROM connected GROUP BY bucket`,
    { ...bucketParams(projectId, range), ...connected.params },
    BucketValueRow,
  );
  return bucketMap(rows, (row) => row.value);
}
