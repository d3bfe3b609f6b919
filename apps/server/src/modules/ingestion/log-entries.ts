import type { IngestEvent } from '@polyflow/contracts/events';
import { boundedCache } from '../../lib/bounded-cache.ts';
import { type EventRow, rowOfBatchEvent } from '../event-store/event-row.ts';
import { type BatchRequest, rowsRecord, rowsRecordsOfBatch } from '../event-store/log-records.ts';
import { type FingerprintInput, incidentIdOfError } from '../incidents/fingerprint.ts';
import { isIgnoredWalletError } from '../incidents/wallet-noise.ts';
import type { LogEntry } from '../ingest-log/log-writer.ts';

/** Error texts longer than this are fingerprinted every time rather than kept as a cache key. */
const MAX_CACHED_ERROR_CHARS = 4096;
const incidentIds = boundedCache<string | null>(1000);

/**
 * `incidentIdOfError`, remembered for the errors seen last: a dapp's failures repeat (the same fault for
 * many users), and the fingerprint's regular expressions and hash cost about 20 µs per error event on
 * the request path. At most 1,000 keys of at most 4 KB each (about 4 MB); the project is part of the key.
 */
function incidentIdOfErrorCached(projectId: string, error: FingerprintInput): string | null {
  const { source, message, stack, code, method, originalTopFrame } = error;
  // Unambiguous whatever the texts hold (a separator character could be part of a message).
  const key = JSON.stringify([projectId, source, message, stack, code, method, originalTopFrame]);
  if (key.length > MAX_CACHED_ERROR_CHARS) return incidentIdOfError(projectId, error);
  let id = incidentIds.get(key);
  if (id === undefined) {
    id = incidentIdOfError(projectId, error);
    incidentIds.set(key, id);
  }
  return id;
}

/** The SDK these rows came from: the published 1.0.25 SDK's rows carry no wallet code of their own. */
const isLegacyRow = (row: EventRow) => row.sdk?.startsWith('polyflow-legacy/') ?? false;

/**
 * An SDK batch as a rows record per event (written straight from the wire events, ADR 021). Error events
 * whose wallet code the project ignores (`ignoredWalletCodes`, ADR 067) are stored without an incident.
 * `topFrames`: error events' top frames mapped through the release's source maps (ADR 066), when any.
 */
export function batchEntry(
  request: BatchRequest,
  events: readonly IngestEvent[],
  ignoredWalletCodes?: readonly number[],
  topFrames?: ReadonlyMap<IngestEvent, string>,
): LogEntry {
  return {
    project: request.project,
    ids: events.map((event) => event.id),
    encode(skip) {
      const kept = skip.size === 0 ? events : events.filter((_, index) => !skip.has(index));
      // Error events carry their incident, computed here in TypeScript (fingerprint.ts) rather than in SQL.
      const withIncidents = kept.map((event) =>
        event.type === 'error'
          ? {
              ...event,
              incidentId: isIgnoredWalletError(event, ignoredWalletCodes)
                ? null
                : incidentIdOfErrorCached(request.project, {
                    source: event.source,
                    message: event.message,
                    stack: event.stack,
                    code: event.code,
                    method: event.method,
                    originalTopFrame: topFrames?.get(event),
                  }),
            }
          : event,
      );
      return rowsRecordsOfBatch(request, withIncidents);
    },
    rows: () => events.map((event) => rowOfBatchEvent(request, event)),
  };
}

/**
 * The row with its `incident_id` filled in (error events of the dapp's sources only, and not those whose
 * wallet code the project ignores).
 */
export function withIncidentId(row: EventRow, ignoredWalletCodes?: readonly number[]): EventRow {
  if (row.type !== 'error' || row.incident_id || !row.error_source) return row;
  const error = {
    source: row.error_source,
    message: row.error_message ?? '',
    stack: row.error_stack,
    code: row.error_code,
  };
  if (isIgnoredWalletError(error, ignoredWalletCodes, { legacy: isLegacyRow(row) })) return row;
  const incidentId = incidentIdOfError(row.project_id, {
    source: row.error_source,
    message: row.error_message ?? '',
    stack: row.error_stack,
    code: row.error_code,
    method: row.rpc_method,
  });
  return incidentId ? { ...row, incident_id: incidentId } : row;
}

/**
 * Rows of one project built in TypeScript (the published SDK's GraphQL mutations): a rows record each,
 * error rows with their incident.
 */
export function rowsEntry(rows: readonly EventRow[], ignoredWalletCodes?: readonly number[]): LogEntry {
  const project = rows[0]?.project_id ?? '';
  if (rows.some((row) => row.project_id !== project)) throw new Error('rowsEntry: rows of one project only');
  return {
    project,
    ids: rows.map((row) => row.id),
    encode(skip) {
      let lines = '';
      rows.forEach((row, index) => {
        if (!skip.has(index)) lines += `${rowsRecord(withIncidentId(row, ignoredWalletCodes))}\n`;
      });
      return lines;
    },
    rows: () => rows,
  };
}
