import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { type Connection, FROM, IN_RANGE, rangeParams, rowsOf } from '../../duckdb/sql.ts';
import { CountsRow, type WalletCounts, walletCountsOf } from './question.ts';

/**
 * The overview's two wallet tiles in one query: wallets connected in the range, and those of them no event
 * carried before `from` (the same definitions as connected-wallets.ts and new-wallets.ts, one bucket).
 */
export async function walletCounts(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  filters?: AnalyticsFilters,
): Promise<WalletCounts> {
  const filter = await eventFilter(connection, projectId, range, filters);
  const [row] = await rowsOf(
    connection,
    `${withCtes(filter.cte, 'connected AS (')}
       SELECT DISTINCT wallet_address
         FROM events
        WHERE ${IN_RANGE}${filter.events} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
     )
     SELECT count(*)::DOUBLE AS connected,
            count(*) FILTER (WHERE wallet_first_touches.first_seen >= ${FROM})::DOUBLE AS fresh
       FROM connected
       LEFT JOIN wallet_first_touches ON wallet_first_touches.project_id = $project
        AND wallet_first_touches.wallet_address = connected.wallet_address`,
    { ...rangeParams(projectId, range), ...filter.params },
    CountsRow,
  );
  return walletCountsOf(row);
}
