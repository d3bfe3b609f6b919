import type { DerivedTable } from './derived-table.ts';

/** `incident_occurrences`: the error events of incidents, with what the summaries read (ADR 025). */
export const INCIDENT_OCCURRENCES: DerivedTable = {
  name: 'incident_occurrences',
  definedIn: 4,
  order: 'project_id, ts',
  rows: `SELECT project_id, id, incident_id, ts, user_id, session_id, wallet_address, error_source, error_message,
       error_stack, error_code, rpc_method
  FROM {source} WHERE type = 'error' AND incident_id IS NOT NULL`,
  onConflict: ['ON CONFLICT DO NOTHING'],
};
