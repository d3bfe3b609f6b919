import type { DuckDBConnection } from '@duckdb/node-api';
import { previousPeriod, type TimeRange } from '../time-range.ts';
import { rangeParams, rowsOf } from './sql.ts';

export type ActiveDays = {
  /** Σ over UTC days of the distinct wallets with any event that day. */
  walletDays: number;
  /** Σ over UTC days of the distinct users (SDK user ids) with any event that day. */
  userDays: number;
  /** walletDays of the period of equal length just before the range (for the trend). */
  previousWalletDays: number;
};

/**
 * Wallet-days and user-days in the range, and wallet-days in the period before it: the numerators of
 * the per-day averages, in one scan of both periods (each row knows which period it belongs to).
 */
export async function activeDays(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
): Promise<ActiveDays> {
  const previous = previousPeriod(range);
  const [row] = await rowsOf(
    connection,
    `WITH activity AS (
       SELECT ts >= make_timestamp($from::BIGINT * 1000) AS is_current, wallet_address, user_id,
              epoch_ms(ts) // 86400000 AS day
         FROM events
        WHERE project_id = $project AND ts >= make_timestamp($previous_from::BIGINT * 1000)
          AND ts < make_timestamp($to::BIGINT * 1000)
     ),
     wallet_days AS (
       SELECT is_current, count(*) AS days
         FROM (SELECT DISTINCT is_current, wallet_address, day FROM activity WHERE wallet_address IS NOT NULL)
        GROUP BY is_current
     )
     SELECT (SELECT days FROM wallet_days WHERE is_current)::DOUBLE AS wallet_days,
            (SELECT days FROM wallet_days WHERE NOT is_current)::DOUBLE AS previous_wallet_days,
            (SELECT count(*) FROM (SELECT DISTINCT user_id, day FROM activity WHERE is_current))::DOUBLE AS user_days`,
    { ...rangeParams(projectId, range), previous_from: BigInt(previous.fromMs) },
  );
  return {
    walletDays: Number(row?.wallet_days ?? 0),
    userDays: Number(row?.user_days ?? 0),
    previousWalletDays: Number(row?.previous_wallet_days ?? 0),
  };
}
