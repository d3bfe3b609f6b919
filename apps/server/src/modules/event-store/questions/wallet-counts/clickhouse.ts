import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { rangeParams } from '../../clickhouse/sql.ts';
import { connectedAndSeenBefore } from '../new-wallets/clickhouse.ts';
import { CountsRow, type WalletCounts, walletCountsOf } from './question.ts';

/**
 * The overview's two wallet tiles in one query: wallets connected in the range, and those of them no event
 * carried before `from` (the same definitions as connected-wallets.ts and new-wallets.ts, one bucket).
 */
export async function walletCounts(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  filters?: AnalyticsFilters,
): Promise<WalletCounts> {
  const wallets = connectedAndSeenBefore(range, filters);
  const [row] = await clickhouse.rows(
    `WITH ${wallets.sql}
     SELECT count() AS connected,
            countIf(wallet NOT IN (SELECT wallet FROM seen_before)) AS fresh
       FROM connected`,
    { ...rangeParams(projectId, range), ...wallets.params },
    CountsRow,
  );
  return walletCountsOf(row);
}
