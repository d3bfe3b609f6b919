import type { DerivedTable } from './derived-table.ts';

/** `transaction_failures`: the failed and reverted stages, which incidents are blamed for. */
export const TRANSACTION_FAILURES: DerivedTable = {
  name: 'transaction_failures',
  definedIn: 4,
  order: 'project_id, ts',
  rows: `SELECT project_id, id, tx_id, session_id, ts
  FROM {source} WHERE type = 'tx' AND tx_stage IN ('failed', 'reverted') AND tx_id IS NOT NULL`,
  onConflict: ['ON CONFLICT DO NOTHING'],
};
