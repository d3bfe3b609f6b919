import type { DerivedTable } from './derived-table.ts';

/** `wallet_days`: the (day, wallet) pairs with an event: wallet-days (ADR 005). */
export const WALLET_DAYS: DerivedTable = {
  name: 'wallet_days',
  definedIn: 4,
  order: 'project_id, day',
  rows: 'SELECT DISTINCT project_id, ts::DATE AS day, wallet_address FROM {source} WHERE wallet_address IS NOT NULL',
  onConflict: ['ON CONFLICT DO NOTHING'],
};
