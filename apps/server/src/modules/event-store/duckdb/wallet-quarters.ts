import type { DerivedTable } from './derived-table.ts';
import { idHash } from './user-quarters.ts';

/**
 * `wallet_quarters`: the (UTC quarter-hour, wallet) pairs with an event (ADR 087). Every zone's offset
 * from UTC is a whole number of quarter-hours, so all events of a quarter-hour fall in one local day of
 * any zone: a zoned project's lifecycle counts its wallets' local days from these rows, exactly, where
 * it read the events of its 56-day window. The same shape as ClickHouse's `wallet_quarters` (ADR 090).
 */
export const WALLET_QUARTERS: DerivedTable = {
  name: 'wallet_quarters',
  // Version 14 added the wallet's 128-bit MD5 (`idHash`), which the zoned active days count (ADR 095).
  definedIn: 14,
  order: 'project_id, quarter',
  rows: `SELECT project_id, quarter, wallet, ${idHash('wallet')} AS wallet_hash
  FROM (SELECT DISTINCT project_id, time_bucket(INTERVAL 15 MINUTE, ts) AS quarter, wallet_address AS wallet
          FROM {source} WHERE wallet_address IS NOT NULL)`,
  onConflict: ['ON CONFLICT DO NOTHING'],
};
