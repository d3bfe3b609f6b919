import type { AnalyticsFilters, Share } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { type Connection, IN_RANGE, rangeParams, rowsOf } from '../../duckdb/sql.ts';
import { ShareRow, shareOf } from './question.ts';

/** Distinct wallets connected in the range per wallet provider (EIP-6963 name), most used first. */
export async function walletProviders(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  filters?: AnalyticsFilters,
): Promise<Share[]> {
  const filter = await eventFilter(connection, projectId, range, filters);
  const rows = await rowsOf(
    connection,
    `${withCtes(filter.cte)}
     SELECT wallet_provider AS share_key, count(DISTINCT wallet_address)::DOUBLE AS share_value
       FROM events
      WHERE ${IN_RANGE}${filter.events} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
      GROUP BY wallet_provider
      ORDER BY share_value DESC, share_key NULLS LAST`,
    { ...rangeParams(projectId, range), ...filter.params },
    ShareRow,
  );
  return rows.map(shareOf);
}
