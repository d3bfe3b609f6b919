import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count } from '../../rows.ts';

export type ActiveDays = {
  /** Σ over the days (of the project's zone) of the distinct wallets with any event that day. */
  walletDays: number;
  /** Σ over the days (of the project's zone) of the distinct users (SDK user ids) with any event that day. */
  userDays: number;
  /** walletDays of the period of equal length just before the range (for the trend). */
  previousWalletDays: number;
};

/**
 * Wallet-days and user-days in the range, and wallet-days in the previous period (default: the one before
 * it): the numerators of the per-day averages (docs/analytics.md#the-previous-period-previous-true). Days
 * are those of `timeZone` (IANA, default UTC: docs/timezone.md): in UTC the whole days come from the
 * tables kept per UTC day, in any other zone every day from the events (`localDayRuns`).
 */
export type ActiveDaysQuestion = {
  activeDays(
    projectId: string,
    range: TimeRange,
    previousRange?: TimeRange,
    timeZone?: string,
    filters?: AnalyticsFilters,
  ): Promise<ActiveDays>;
};

/**
 * The local days of both periods, numbered once from the earlier period's first (a day the two periods
 * share, when the previous one ends within it, keeps one number: each period counts it).
 */
export const bothPeriods = (range: TimeRange, previousRange: TimeRange): TimeRange => ({
  fromMs: Math.min(range.fromMs, previousRange.fromMs),
  toMs: Math.max(range.toMs, previousRange.toMs),
});

/** The value-days of a range (DuckDB: of its whole days, then of its partial days; added up). */
export const DaysRow = z.object({ wallet_days: count, user_days: count, previous_wallet_days: count });

export const activeDaysOf = (...rows: (z.infer<typeof DaysRow> | undefined)[]): ActiveDays => ({
  walletDays: rows.reduce((sum, row) => sum + (row?.wallet_days ?? 0), 0),
  userDays: rows.reduce((sum, row) => sum + (row?.user_days ?? 0), 0),
  previousWalletDays: rows.reduce((sum, row) => sum + (row?.previous_wallet_days ?? 0), 0),
});
