import type { EventRow } from '../../src/modules/event-store/event-row.ts';

/** A stored row as the export writes it: ISO times, big numbers as decimal text, the rest as stored. */
export function exportedRecord(row: EventRow): Record<string, string | number | null> {
  return Object.fromEntries(
    Object.entries(row).map(([name, value]) => {
      if (value === null) return [name, null];
      if (name === 'ts' || name === 'received_at') return [name, new Date(value as number).toISOString()];
      return [name, typeof value === 'bigint' ? value.toString() : value];
    }),
  );
}

/** RFC 4180, written out here rather than shared with the server: quoted fields, "" for a quote, CRLF. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let index = 0;
  let isQuoted = false;
  while (index < text.length) {
    const char = text[index] as string;
    if (isQuoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 2;
        continue;
      }
      if (char === '"') isQuoted = false;
      else field += char;
      index += 1;
      continue;
    }
    if (char === '"') isQuoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index += 1;
    } else field += char;
    index += 1;
  }
  if (field !== '' || record.length > 0) throw new Error('CSV does not end with CRLF');
  return records;
}
