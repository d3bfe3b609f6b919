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
  /** The batch's `release`, when the SDK was given one. */
  release?: string | null;
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

/**
 * A source as a JavaScript expression over `q` (the request) and `e` (the event) whose value is the
 * column's, or null/undefined where `rowOfBatchEvent` has null: `e.wallet?.address`, `(q.project)`. Keys
 * reach the code as JSON string literals only (`e?.["utm"]?.["source"]`), never as code. Static keys
 * let V8 cache each property's place per event shape, where a loop over a path's keys looks every key up
 * in the generic (megamorphic) way.
 */
function expressionOf(source: Source): string {
  switch (source.from) {
    case 'event': {
      const value = `e${source.path.map((key) => `?.[${JSON.stringify(key)}]`).join('')}`;
      return source.json === 'object' ? `objectText(${value})` : value;
    }
    case 'request':
      return `q[${JSON.stringify(source.field)}]`;
    case 'lower':
      return `lower(${expressionOf(source.of)})`;
    case 'coalesce':
      return `(${source.of.map(expressionOf).join(' ?? ')})`;
    case 'only':
      return `(e.type === ${JSON.stringify(source.type)} ? ${expressionOf(source.of)} : null)`;
  }
}

const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);
/** An object's JSON text (properties), or null when absent. */
const objectText = (value: unknown) => (value == null ? null : JSON.stringify(value));

/** Whether JSON writes the text as it is between quotes: no quote, backslash, control or surrogate character. */
function isPlainText(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return false;
  }
  return true;
}

/**
 * A string as JSON: most values (ids, addresses, paths, names) need no escape, and quoting them is
 * cheaper than a call to JSON.stringify.
 */
const quote = (text: string) => (isPlainText(text) ? `"${text}"` : JSON.stringify(text));

/** A column's value as rows-record JSON: text and decimal strings quoted, numbers as they are. */
function jsonCode(kind: EventColumn['kind'], value: string): string {
  if (kind === 'varchar') return `quote(${value})`;
  if (kind === 'hugeint') return `quote(String(${value}))`;
  return `String(${value})`;
}

/**
 * The batch writer, generated once from the columns (event-row.ts): per batch, the request's columns
 * are written once; per event, each other column is read with its own expression and, when present,
 * appended as `"name":value`, in table order. What it writes for an event is `rowsRecord` of the row
 * `rowOfBatchEvent` maps it to (test/event-store/batch-records.test.ts). Generated rather than
 * interpreted column by column: 49 µs of CPU per bench batch of 20 events instead of 87 for a loop over
 * a closure per column (best of 30 rounds, taking turns in one process).
 */
function compileBatchWriter(): (request: object, events: readonly object[]) => string {
  const perBatch: string[] = [];
  const perEvent: string[] = [];
  EVENT_COLUMNS.forEach(({ name, kind, source }, index) => {
    const key = JSON.stringify(`${JSON.stringify(name)}:`);
    if (isRequestOnly(source)) {
      perBatch.push(
        `const r${index} = (v = ${expressionOf(source)}) == null ? '' : ${key} + ${jsonCode(kind, 'v')};`,
      );
      perEvent.push(`if (r${index} !== '') { s += sep + r${index}; sep = ','; }`);
    } else {
      perEvent.push(
        `if ((v = ${expressionOf(source)}) != null) { s += sep + ${key} + ${jsonCode(kind, 'v')}; sep = ','; }`,
      );
    }
  });
  const body = `return function rowsRecordsOfBatch(q, events) {
  let v;
  ${perBatch.join('\n  ')}
  const lines = new Array(events.length + 1);
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    let s = '{';
    let sep = '';
    ${perEvent.join('\n    ')}
    lines[i] = s + '}';
  }
  lines[events.length] = '';
  return lines.join('\\n');
};`;
  // Generated from the column table only (names and paths reach it as JSON literals).
  return new Function('lower', 'quote', 'objectText', body)(lower, quote, objectText) as (
    request: object,
    events: readonly object[],
  ) => string;
}

const writeBatch = compileBatchWriter();

/**
 * An SDK batch as rows records, one line (ending in "\n") per event: each event's row as
 * `rowOfBatchEvent` maps it, written without building the row. The events are valid (BatchSchema), their
 * big numbers storable and error events carry their `incidentId`; the request's columns are written once.
 * Each line is one short concatenation, joined from an array: a string of a thousand concatenations is a
 * deep rope that V8 flattens when the log turns it into bytes (ADR 023).
 */
export function rowsRecordsOfBatch(request: BatchRequest, events: readonly object[]): string {
  return writeBatch(request, events);
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
