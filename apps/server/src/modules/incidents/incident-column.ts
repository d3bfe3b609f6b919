import type { EventRow } from '../events/event-row.ts';
import { fingerprintOf, incidentIdOf } from './fingerprint.ts';

/** Error sources that are the dapp's incidents; the published SDK's own failures (`sdk`) are not. */
export const INCIDENT_SOURCES: readonly string[] = ['window', 'promise', 'wallet'];

/**
 * The row with its `incident_id` filled in (error events only): the event store calls this for every row
 * it writes, whatever produced the row (the SDK route, the 1.0.25 GraphQL mutations, the demo seeder).
 */
export function withIncidentId(row: EventRow): EventRow {
  if (
    row.type !== 'error' ||
    row.incident_id ||
    !row.error_source ||
    !INCIDENT_SOURCES.includes(row.error_source)
  ) {
    return row;
  }
  const fingerprint = fingerprintOf({
    source: row.error_source,
    message: row.error_message ?? '',
    stack: row.error_stack,
    code: row.error_code,
    method: row.rpc_method,
  });
  return { ...row, incident_id: incidentIdOf(row.project_id, fingerprint) };
}
