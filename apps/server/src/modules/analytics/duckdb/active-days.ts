import type { DuckDBConnection } from '@duckdb/node-api';
import { previousPeriod, type TimeRange, utcDayParts } from '../time-range.ts';
import { type Params, rowsOf } from './sql.ts';

export type ActiveDays = {
  /** Σ over UTC days of the distinct wallets with any event that day. */
  walletDays: number;
  /** Σ over UTC days of the distinct users (SDK user ids) with any event that day. */
  userDays: number;
  /** walletDays of the period of equal length just before the range (for the trend). */
  previousWalletDays: number;
};

const at = (name: string) => `make_timestamp($${name}::BIGINT * 1000)`;

/**
 * Σ over UTC days of the distinct `column` values in `period`: whole days are rows of the derived
 * `table` (one per project, day and value; ADR 005), the partly covered days at either end are counted
 * from the events (each piece lies within one day, so its distinct values are its value-days).
 */
function valueDays(table: string, column: string, name: string, period: TimeRange, params: Params): string {
  const parts = utcDayParts(period);
  for (const [part, range] of Object.entries(parts)) {
    params[`${name}_${part}_from`] = BigInt(range.fromMs);
    params[`${name}_${part}_to`] = BigInt(range.toMs);
  }
  const piece = (part: string) =>
    `(SELECT count(DISTINCT ${column}) FROM events
       WHERE project_id = $project AND ts >= ${at(`${name}_${part}_from`)} AND ts < ${at(`${name}_${part}_to`)})`;
  return `((SELECT count(*) FROM ${table}
             WHERE project_id = $project AND day >= ${at(`${name}_days_from`)}::DATE
               AND day < ${at(`${name}_days_to`)}::DATE)
          + ${piece('before')} + ${piece('after')})::DOUBLE`;
}

/**
 * Wallet-days and user-days in the range, and wallet-days in the period before it: the numerators of
 * the per-day averages.
 */
export async function activeDays(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
): Promise<ActiveDays> {
  const params: Params = { project: projectId };
  const [row] = await rowsOf(
    connection,
    `SELECT ${valueDays('wallet_days', 'wallet_address', 'wallets', range, params)} AS wallet_days,
            ${valueDays('wallet_days', 'wallet_address', 'previous', previousPeriod(range), params)} AS previous_wallet_days,
            ${valueDays('user_days', 'user_id', 'users', range, params)} AS user_days`,
    params,
  );
  return {
    walletDays: Number(row?.wallet_days ?? 0),
    userDays: Number(row?.user_days ?? 0),
    previousWalletDays: Number(row?.previous_wallet_days ?? 0),
  };
}
