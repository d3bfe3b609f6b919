import type { IngestEvent } from '@polyflow/contracts/events';
import { incidentIdOfError, withIncidentId } from '../incidents/incident-column.ts';
import { type BatchRequestFacts, batchRecord } from '../event-store/duckdb/segment-rows.ts';
import { rowToJson } from '../event-store/log-records.ts';
import type { EventRow } from '../event-store/event-row.ts';
import type { LogEntry } from './log-writer.ts';

/** An SDK batch as one batch record: DuckDB maps its events to rows on load (duckdb/batch-records.ts). */
export function batchEntry(request: BatchRequestFacts, events: readonly IngestEvent[]): LogEntry {
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
              incidentId: incidentIdOfError(request.project, {
                source: event.source,
                message: event.message,
                stack: event.stack,
                code: event.code,
                method: event.method,
              }),
            }
          : event,
      );
      return `${batchRecord(request, withIncidents)}\n`;
    },
  };
}

/** Rows of one project built in TypeScript (the published SDK's GraphQL mutations): a rows record each. */
export function rowsEntry(rows: readonly EventRow[]): LogEntry {
  const project = rows[0]?.project_id ?? '';
  if (rows.some((row) => row.project_id !== project)) throw new Error('rowsEntry: rows of one project only');
  return {
    project,
    ids: rows.map((row) => row.id),
    encode(skip) {
      let lines = '';
      rows.forEach((row, index) => {
        if (!skip.has(index)) lines += `${rowToJson(withIncidentId(row))}\n`;
      });
      return lines;
    },
  };
}
