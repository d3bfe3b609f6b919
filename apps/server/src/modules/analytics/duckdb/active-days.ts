import type { DuckDBConnection } from '@duckdb/node-api';
import type { TimeRange } from '../time-range.ts';
import { IN_RANGE, rangeParams, rowsOf } from './sql.ts';

export type ActiveDays = {
  /** Σ over UTC days of the distinct wallets with any event that day. */
  walletDays: number;
  /** Σ over UTC days of the distinct users (SDK user ids) with any event that day. */
  userDays: number;
};

/** Wallet-days and user-days in the range: the numerators of the per-day averages. */
export async function activeDays(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
): Promise<ActiveDays> {
  const [row] = await rowsOf(
    connection,
    `WITH activity AS (
       SELECT wallet_address, user_id, epoch_ms(ts) // 86400000 AS day FROM events WHERE ${IN_RANGE}
     )
     SELECT (SELECT count(*) FROM (SELECT DISTINCT wallet_address, day FROM activity WHERE wallet_address IS NOT NULL))::DOUBLE AS wallet_days,
            (SELECT count(*) FROM (SELECT DISTINCT user_id, day FROM activity))::DOUBLE AS user_days`,
    rangeParams(projectId, range),
  );
  return { walletDays: Number(row?.wallet_days ?? 0), userDays: Number(row?.user_days ?? 0) };
}
