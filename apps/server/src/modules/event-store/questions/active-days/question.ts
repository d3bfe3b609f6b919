import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count } from '../../rows.ts';

export type ActiveDays = {
  /** Σ over UTC days of the distinct wallets with any event that day. */
  walletDays: number;
  /** Σ over UTC days of the distinct users (SDK user ids) with any event that day. */
  userDays: number;
  /** walletDays of the period of equal length just before the range (for the trend). */
  previousWalletDays: number;
};

/**
 * Wallet-days and user-days in the range, and wallet-days in the previous period (default: the one before
 * it): the numerators of the per-day averages (docs/analytics.md#the-previous-period-previous-true).
 */
export type ActiveDaysQuestion = {
  activeDays(
    projectId: string,
    range: TimeRange,
    previousRange?: TimeRange,
    filters?: AnalyticsFilters,
  ): Promise<ActiveDays>;
};

/** The value-days of a range (DuckDB: of its whole days, then of its partial days; added up). */
export const DaysRow = z.object({ wallet_days: count, user_days: count, previous_wallet_days: count });

export const activeDaysOf = (...rows: (z.infer<typeof DaysRow> | undefined)[]): ActiveDays => ({
  walletDays: rows.reduce((sum, row) => sum + (row?.wallet_days ?? 0), 0),
  userDays: rows.reduce((sum, row) => sum + (row?.user_days ?? 0), 0),
  previousWalletDays: rows.reduce((sum, row) => sum + (row?.previous_wallet_days ?? 0), 0),
});
