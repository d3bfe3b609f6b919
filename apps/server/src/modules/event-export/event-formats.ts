import { EVENT_COLUMNS, type EventRow } from '../event-store/event-row.ts';

/**
 * The export's two formats, one line per stored event with every column of event-row.ts in table order.
 * Times are ISO 8601 UTC with milliseconds, big numbers (wei, gas) decimal text so that no reader
 * rounds them, and a missing value is JSON null or an empty CSV field. Values are written as stored
 * (no spreadsheet-formula escaping): this is raw data for scripts and BI tools.
 */
export type ExportFormat = 'ndjson' | 'csv';

type Plain = string | number | null;
const COLUMNS = EVENT_COLUMNS.map(({ name, kind }) => ({ name, isTime: kind === 'timestamp' }));

function plain(value: EventRow[keyof EventRow], isTime: boolean): Plain {
  if (value === null) return null;
  if (isTime) return new Date(value as number).toISOString();
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/**
 * A page's NDJSON lines. One record object serves every row of the page: its keys are set once in table
 * order, and refilling it allocates nothing per row but the line (an export's rows are millions).
 */
function ndjsonLines(page: EventRow[]): string {
  const record: Record<string, Plain> = {};
  let text = '';
  for (const row of page) {
    for (const { name, isTime } of COLUMNS) record[name] = plain(row[name], isTime);
    text += `${JSON.stringify(record)}\n`;
  }
  return text;
}

/** RFC 4180: a field holding a comma, a double quote or a line break is quoted, its quotes doubled. */
export function csvField(value: Plain): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLines(page: EventRow[]): string {
  let text = '';
  for (const row of page) {
    let line = '';
    for (let index = 0; index < COLUMNS.length; index++) {
      const { name, isTime } = COLUMNS[index] as (typeof COLUMNS)[number];
      line += index === 0 ? csvField(plain(row[name], isTime)) : `,${csvField(plain(row[name], isTime))}`;
    }
    text += `${line}\r\n`;
  }
  return text;
}

export const CSV_HEADER = `${EVENT_COLUMNS.map(({ name }) => name).join(',')}\r\n`;

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
};

/** The export as text chunks, one per page of rows: pulled one at a time by the HTTP response. */
export async function* formatEvents(pages: AsyncIterable<EventRow[]>, format: ExportFormat) {
  const lines = format === 'csv' ? csvLines : ndjsonLines;
  if (format === 'csv') yield CSV_HEADER;
  for await (const page of pages) yield lines(page);
}
