import type { DerivedTable } from './derived-table.ts';

/**
 * `user_quarters`: the (UTC quarter-hour, user) pairs with an event (ADR 095), as `wallet_quarters` is
 * for wallets (ADR 087): a quarter-hour lies in one local day of any zone, so a zoned project's
 * user-days (the overview's Average TX/User/Day) are counted from these rows, exactly, where they read
 * the events of both periods. The same shape as ClickHouse's `user_quarters` (ADR 090).
 */
export const USER_QUARTERS: DerivedTable = {
  name: 'user_quarters',
  definedIn: 14,
  order: 'project_id, quarter',
  rows: `SELECT DISTINCT project_id, time_bucket(INTERVAL 15 MINUTE, ts) AS quarter, user_id
  FROM {source}`,
  onConflict: ['ON CONFLICT DO NOTHING'],
};
