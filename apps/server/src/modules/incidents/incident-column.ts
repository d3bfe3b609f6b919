import type { EventRow } from '../event-store/event-row.ts';
import { type FingerprintInput, fingerprintOf, incidentIdOf } from './fingerprint.ts';

/** Error sources that are the dapp's incidents; the published SDK's own failures (`sdk`) are not. */
export const INCIDENT_SOURCES: readonly string[] = ['window', 'promise', 'wallet'];

/** The incident of an error event with these fields, or null when its source is not the dapp's. */
export function incidentIdOfError(projectId: string, error: FingerprintInput): string | null {
  if (!INCIDENT_SOURCES.includes(error.source)) return null;
  return incidentIdOf(projectId, fingerprintOf(error));
}

/**
 * The row with its `incident_id` filled in (error events only): the event store calls this for every row
 * it writes from rows (the 1.0.25 GraphQL mutations, the demo seeder); SDK batches get theirs from
 * `incidentIdOfError` on the way into the ingestion log.
 */
export function withIncidentId(row: EventRow): EventRow {
  if (row.type !== 'error' || row.incident_id || !row.error_source) return row;
  const incidentId = incidentIdOfError(row.project_id, {
    source: row.error_source,
    message: row.error_message ?? '',
    stack: row.error_stack,
    code: row.error_code,
    method: row.rpc_method,
  });
  return incidentId ? { ...row, incident_id: incidentId } : row;
}
