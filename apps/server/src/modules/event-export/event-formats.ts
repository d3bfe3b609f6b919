import { EVENT_COLUMNS, type EventRow } from '../event-store/event-row.ts';

/**
 * The export's two formats, one line per stored event with every column of event-row.ts in table order.
 * Times are ISO 8601 UTC with milliseconds, big numbers (wei, gas) decimal text so that no reader
 * rounds them, and a missing value is JSON null or an empty CSV field. Values are written as stored
 * (no spreadsheet-formula escaping): this is raw data for scripts and BI tools.
 */
export type ExportFormat = 'ndjson' | 'csv';

const isTime = new Set(EVENT_COLUMNS.filter((c) => c.kind === 'timestamp').map((c) => c.name));

function plain(name: keyof EventRow, value: EventRow[keyof EventRow]): string | number | null {
  if (value === null) return null;
  if (isTime.has(name)) return new Date(value as number).toISOString();
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function ndjsonLine(row: EventRow): string {
  const record: Record<string, string | number | null> = {};
  for (const { name } of EVENT_COLUMNS) record[name] = plain(name, row[name]);
  return `${JSON.stringify(record)}\n`;
}

/** RFC 4180: a field holding a comma, a double quote or a line break is quoted, its quotes doubled. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(row: EventRow): string {
  return `${EVENT_COLUMNS.map(({ name }) => csvField(plain(name, row[name]))).join(',')}\r\n`;
}

export const CSV_HEADER = `${EVENT_COLUMNS.map(({ name }) => name).join(',')}\r\n`;

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
};

/** The export as text chunks, one per page of rows: pulled one at a time by the HTTP response. */
export async function* formatEvents(pages: AsyncIterable<EventRow[]>, format: ExportFormat) {
  const line = format === 'csv' ? csvLine : ndjsonLine;
  if (format === 'csv') yield CSV_HEADER;
  for await (const page of pages) {
    let chunk = '';
    for (const row of page) chunk += line(row);
    yield chunk;
  }
}
