import type { DerivedTable } from './derived-table.ts';

/**
 * `wallet_active_days`: the (day, wallet) pairs with an event: wallet-days (ADR 005). Named `wallet_days`
 * before version 10; ClickHouse's `wallet_days` keeps each pair's first times too
 * (docs/decisions/090-one-name-one-shape.md).
 */
export const WALLET_ACTIVE_DAYS: DerivedTable = {
  name: 'wallet_active_days',
  definedIn: 10,
  order: 'project_id, day',
  rows: 'SELECT DISTINCT project_id, ts::DATE AS day, wallet_address FROM {source} WHERE wallet_address IS NOT NULL',
  onConflict: ['ON CONFLICT DO NOTHING'],
};
