import { EVENT_COLUMNS, type EventColumn, type EventRow, rowOfBatchEvent, type Source } from './event-row.ts';

/**
 * The records of an ingestion log segment: what the event store's write side loads
 * (`EventStore.loadSegment`). Ingestion writes them (one single-line JSON object per line), each adapter
 * reads them in its own way; `rowsOfRecord` reads one in TypeScript. Engine-neutral: plain JSON, numbers
 * past 2^53 as decimal strings.
 *
 * - A **rows record** is one finished row, its columns in table order, nulls left out, timestamps as
 *   epoch ms, big numbers as decimal strings. Ingestion writes every event this way (ADR 021): an SDK
 *   event's row straight from the wire event (`rowsRecordsOfBatch`, about as cheap as `JSON.stringify`
 *   of the event), the published SDK's GraphQL mutations from the rows they build (`rowsRecord`). A flat
 *   object whose keys are the columns is what an engine's JSON reader maps fastest (DuckDB: 6 µs per
 *   event instead of 15 for a batch record's nested events).
 * - A **batch record** holds an SDK batch as it was validated: the request's facts and the wire events
 *   (`@polyflow/contracts/events`), error events with their `incidentId`. Written by ingestion before
 *   ADR 021 and still loaded (a log left by an older version); the adapter maps each event to a row as
 *   `event-row.ts` says.
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

/** How an SDK event's column is written into its rows record: `"name":value`, or '' when it is null. */
type ColumnWriter = (request: Record<string, unknown>, event: Record<string, unknown>) => string;

/** Whether a column's value comes from the request alone (the same for every event of a batch). */
function isRequestOnly(source: Source): boolean {
  switch (source.from) {
    case 'request':
      return true;
    case 'event':
    case 'only': // depends on the event's type
      return false;
    case 'lower':
      return isRequestOnly(source.of);
    case 'coalesce':
      return source.of.every(isRequestOnly);
  }
}

/** Compiled once per column from its source (event-row.ts): the same values as `rowOfBatchEvent`. */
function readerOf(
  source: Source,
): (request: Record<string, unknown>, event: Record<string, unknown>) => unknown {
  switch (source.from) {
    case 'event': {
      // The common paths (one or two keys) without a loop: this runs for every column of every event.
      const [first, second] = source.path as [string, string | undefined];
      if (source.path.length === 1) return (_request, event) => event[first] ?? null;
      if (source.path.length === 2) {
        return (_request, event) =>
          (event[first] as Record<string, unknown> | undefined)?.[second as string] ?? null;
      }
      return (_request, event) => {
        let value: unknown = event;
        for (const key of source.path) value = (value as Record<string, unknown> | undefined)?.[key];
        return value ?? null;
      };
    }
    case 'request':
      return (request) => request[source.field] ?? null;
    case 'lower': {
      const read = readerOf(source.of);
      return (request, event) => {
        const value = read(request, event);
        return typeof value === 'string' ? value.toLowerCase() : value;
      };
    }
    case 'coalesce': {
      const reads = source.of.map(readerOf);
      return (request, event) => {
        for (const read of reads) {
          const value = read(request, event);
          if (value !== null) return value;
        }
        return null;
      };
    }
    case 'only': {
      const read = readerOf(source.of);
      return (request, event) => (event.type === source.type ? read(request, event) : null);
    }
  }
}

/** A column's value as rows-record JSON: text and decimal strings quoted, numbers as they are. */
function jsonOf(kind: EventColumn['kind'], value: unknown): string {
  if (kind === 'varchar') return JSON.stringify(value);
  if (kind === 'hugeint') return JSON.stringify(String(value));
  return String(value);
}

const WRITERS = EVENT_COLUMNS.map(
  ({ kind, source }, index): { isRequestOnly: boolean; write: ColumnWriter } => {
    const read = readerOf(source);
    const key = `${KEYS[index]}:`;
    return {
      isRequestOnly: isRequestOnly(source),
      write: (request, event) => {
        const value = read(request, event);
        return value === null || value === undefined ? '' : key + jsonOf(kind, value);
      },
    };
  },
);

/**
 * An SDK batch as rows records, one line (ending in "\n") per event: each event's row as
 * `rowOfBatchEvent` maps it, written without building the row. The events are valid (BatchSchema), their
 * big numbers storable and error events carry their `incidentId`; the request's columns are written once.
 */
export function rowsRecordsOfBatch(request: BatchRequest, events: readonly object[]): string {
  const facts = request as unknown as Record<string, unknown>;
  const fromRequest = WRITERS.map((writer) => (writer.isRequestOnly ? writer.write(facts, {}) : undefined));
  // Joined from arrays, not built with +=: a string of a thousand concatenations is a deep rope that V8
  // flattens when the log turns it into bytes, which cost the request path about twice the encoding
  // itself (ADR 023).
  const lines: string[] = [];
  const parts: string[] = [];
  for (const event of events) {
    parts.length = 0;
    for (let index = 0; index < WRITERS.length; index++) {
      const part =
        fromRequest[index] ?? (WRITERS[index] as (typeof WRITERS)[number]).write(facts, event as never);
      if (part) parts.push(part);
    }
    lines.push(`{${parts.join(',')}}`);
  }
  lines.push('');
  return lines.join('\n');
}

/** A rows record's JSON value as the row's: bigint for big numbers, the rest as JSON has them. */
function rowValueOf(kind: EventColumn['kind'], value: unknown): unknown {
  if (value === undefined || value === null) return null;
  return kind === 'hugeint' ? BigInt(value as string) : value;
}

/**
 * The rows of one record, read in TypeScript: what every adapter must store for it (tests; an engine
 * that loads rows one by one). Throws on a line that is not a record.
 */
export function rowsOfRecord(line: string): EventRow[] {
  const record = JSON.parse(line) as Record<string, unknown>;
  if (line.startsWith(BATCH_RECORD_PREFIX)) {
    const { request, events } = record as { request: object; events: object[] };
    return events.map((event) => rowOfBatchEvent(request, event));
  }
  if (!line.startsWith(ROWS_RECORD_PREFIX)) throw new Error('not an ingestion log record');
  const row: Record<string, unknown> = {};
  for (const { name, kind } of EVENT_COLUMNS) row[name] = rowValueOf(kind, record[name]);
  return [row as EventRow];
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
