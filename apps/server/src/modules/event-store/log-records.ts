import { EVENT_COLUMNS, type EventRow } from './event-row.ts';

/**
 * The records of an ingestion log segment: what the event store's write side loads
 * (`EventStore.loadSegment`). Ingestion writes them (one single-line JSON object per line), each adapter
 * maps them to rows in its own way. Engine-neutral: plain JSON, numbers past 2^53 as decimal strings.
 *
 * - A **batch record** holds an SDK batch as it was validated: the request's facts and the wire events
 *   (`@polyflow/contracts/events`), error events with their `incidentId`. The adapter maps each event to a
 *   row as `event-row.ts` says (DuckDB does it in SQL, on its own threads: building a 53-column row per
 *   event in JavaScript was half of an ingestion request's CPU, ADR 003).
 * - A **rows record** is one finished row (the published SDK's GraphQL mutations build those), its
 *   columns in table order, nulls left out, timestamps as epoch ms, big numbers as decimal strings.
 */

/** What the server adds to every event of a request. */
export type BatchRequest = {
  project: string;
  /** The Origin's host. */
  origin: string;
  /** Epoch ms. */
  receivedAt: number;
  sdk: string | null;
  country: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
};

/** Batch records start with this, rows records with ROWS_RECORD_PREFIX. */
export const BATCH_RECORD_PREFIX = '{"request":';
export const ROWS_RECORD_PREFIX = '{"project_id":';

/** One batch record; `events` are validated wire events (with `incidentId` on error events). */
export function batchRecord(request: BatchRequest, events: readonly object[]): string {
  return `${BATCH_RECORD_PREFIX}${JSON.stringify(request)},"events":${JSON.stringify(events)}}`;
}

const KEYS = EVENT_COLUMNS.map(({ name }) => JSON.stringify(name));

/** One rows record. */
export function rowsRecord(row: EventRow): string {
  let object = '{';
  EVENT_COLUMNS.forEach(({ name, kind }, index) => {
    const value = row[name];
    if (value === null || value === undefined) return;
    if (object.length > 1) object += ',';
    object += `${KEYS[index]}:`;
    if (kind === 'varchar') object += JSON.stringify(value);
    else if (kind === 'hugeint') object += `"${(value as bigint).toString()}"`;
    else object += String(value);
  });
  return `${object}}`;
}

/** A rows record starts with the two key columns (rowsRecord writes columns in table order). */
const ROW_KEY_PREFIX = /^\{"project_id":("(?:[^"\\]|\\.)*"),"id":("(?:[^"\\]|\\.)*")/;

/** The (project, event id) pairs a record holds; none for a damaged record (the loader quarantines it). */
export function eventKeysOfRecord(line: string): [project: string, id: string][] {
  try {
    if (line.startsWith(BATCH_RECORD_PREFIX)) {
      const record = JSON.parse(line) as { request: { project: string }; events: { id: string }[] };
      return record.events.map((event) => [record.request.project, event.id]);
    }
    const match = ROW_KEY_PREFIX.exec(line);
    return match ? [[JSON.parse(match[1] as string), JSON.parse(match[2] as string)]] : [];
  } catch {
    return [];
  }
}
