import type { AnalyticsFilters, Share } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
import { EVENTS, IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
import { ShareRow, shareOf } from './question.ts';

/** Distinct wallets connected in the range per wallet provider (EIP-6963 name), most used first. */
export async function walletProviders(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  filters?: AnalyticsFilters,
): Promise<Share[]> {
  const filter = eventFilter(filters, range);
  const rows = await clickhouse.rows(
    `${withCtes(filter.cte)}
     SELECT wallet_provider AS share_key, uniqExact(wallet_address) AS share_value
       FROM ${EVENTS}
      WHERE ${IN_RANGE}${filter.events} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
      GROUP BY wallet_provider
      ORDER BY share_value DESC, share_key NULLS LAST`,
    { ...rangeParams(projectId, range), ...filter.params },
    ShareRow,
  );
  return rows.map(shareOf);
}
