import type { AcquisitionFilters, AttributionDimension } from '@polyflow/contracts/acquisition';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count, flag, textOrNull } from '../../rows.ts';

/** The raw counts of one attribution row; the service adds the rates. `value` null: Total (isTotal) or Unattributed. */
export type AttributionCounts = {
  isTotal: boolean;
  value: string | null;
  newWallets: number;
  connects: number;
  transactions: number;
  sessions: number;
  users: number;
  sessionsWithTransaction: number;
  usersWithTransaction: number;
  sessionsWithConnect: number;
  usersWithConnect: number;
};

/**
 * Sessions in the range grouped by their landing UTM value of the dimension, plus the Total row
 * (docs/acquisition-and-incidents.md#attribution-attribution).
 */
export type AttributionCountsQuestion = {
  attributionCounts(
    projectId: string,
    range: TimeRange,
    dimension: AttributionDimension,
    filters: AcquisitionFilters,
  ): Promise<AttributionCounts[]>;
};

export const AttributionRow = z.object({
  is_total: flag,
  value: textOrNull,
  new_wallets: count,
  connects: count,
  transactions: count,
  sessions: count,
  users: count,
  sessions_with_tx: count,
  users_with_tx: count,
  sessions_with_connect: count,
  users_with_connect: count,
});

export const attributionCountsOf = (row: z.infer<typeof AttributionRow>): AttributionCounts => ({
  isTotal: row.is_total,
  value: row.value,
  newWallets: row.new_wallets,
  connects: row.connects,
  transactions: row.transactions,
  sessions: row.sessions,
  users: row.users,
  sessionsWithTransaction: row.sessions_with_tx,
  usersWithTransaction: row.users_with_tx,
  sessionsWithConnect: row.sessions_with_connect,
  usersWithConnect: row.users_with_connect,
});
