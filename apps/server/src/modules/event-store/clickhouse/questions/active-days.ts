import { z } from 'zod';
import { previousPeriod, type TimeRange } from '../../../../reading/time-range.ts';
import type { ActiveDays } from '../../analytics-questions.ts';
import type { ClickHouse } from '../client.ts';
import { EVENTS } from '../sql.ts';

const DaysRow = z.object({
  wallet_days: z.coerce.number(),
  user_days: z.coerce.number(),
  previous_wallet_days: z.coerce.number(),
});

const inPeriod = (period: 'current' | 'previous') =>
  `ts >= fromUnixTimestamp64Milli({${period}_from:Int64}, 'UTC') AND ts < fromUnixTimestamp64Milli({${period}_to:Int64}, 'UTC')`;

/**
 * Wallet-days and user-days in the range, and wallet-days in the period before it: the numerators of
 * the per-day averages, as distinct (UTC day, value) pairs of the events in each period (a partly covered
 * day at an end counts the values of its covered part). One scan reads both periods.
 */
export async function activeDays(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  previousRange: TimeRange = previousPeriod(range),
): Promise<ActiveDays> {
  const [row] = await clickhouse.rows(
    `SELECT uniqExactIf((toDate(ts), assumeNotNull(wallet_address)), wallet_address IS NOT NULL AND ${inPeriod('current')}) AS wallet_days,
            uniqExactIf((toDate(ts), user_id), ${inPeriod('current')}) AS user_days,
            uniqExactIf((toDate(ts), assumeNotNull(wallet_address)), wallet_address IS NOT NULL AND ${inPeriod('previous')}) AS previous_wallet_days
       FROM ${EVENTS}
      WHERE project_id = {project:String} AND ((${inPeriod('current')}) OR (${inPeriod('previous')}))`,
    {
      project: projectId,
      current_from: range.fromMs,
      current_to: range.toMs,
      previous_from: previousRange.fromMs,
      previous_to: previousRange.toMs,
    },
    DaysRow,
  );
  return {
    walletDays: row?.wallet_days ?? 0,
    userDays: row?.user_days ?? 0,
    previousWalletDays: row?.previous_wallet_days ?? 0,
  };
}
