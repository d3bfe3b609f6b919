import type { IngestEvent } from '@polyflow/contracts/events';
import { incidentIdOfError, withIncidentId } from '../incidents/incident-column.ts';
import { type BatchRequestFacts, batchRecord } from './duckdb/batch-records.ts';
import { rowToJson } from './duckdb/rows-json.ts';
import type { EventRow } from './event-row.ts';
import type { LogEntry } from './log-writer.ts';
import { eventKey } from './recent-ids.ts';

/** An SDK batch as one batch record: DuckDB maps its events to rows on load (duckdb/batch-records.ts). */
export function batchEntry(request: BatchRequestFacts, events: readonly IngestEvent[]): LogEntry {
  return {
    keys: events.map((event) => eventKey(request.project, event.id)),
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

/** Rows built in TypeScript (the published SDK's GraphQL mutations): one rows record per row. */
export function rowsEntry(rows: readonly EventRow[]): LogEntry {
  return {
    keys: rows.map((row) => eventKey(row.project_id, row.id)),
    encode(skip) {
      let lines = '';
      rows.forEach((row, index) => {
        if (!skip.has(index)) lines += `${rowToJson(withIncidentId(row))}\n`;
      });
      return lines;
    },
  };
}
