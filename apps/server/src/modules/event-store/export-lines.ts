import { EVENT_COLUMNS, type EventColumn } from './event-row.ts';

/**
 * The raw export's lines written by the engine itself (docs/decisions/077): one SQL expression per row
 * that gives the row's NDJSON object or CSV record, byte for byte what the JavaScript formatter
 * (event-export/event-formats.ts) writes, so that formatting runs on the engine's threads and never on
 * the server's one JavaScript thread. Each adapter hands its dialect (function names, literals); the
 * rules are here once:
 *
 * - columns in event-row.ts order (`local_time` last when asked), times ISO 8601 UTC with milliseconds
 *   as `Date.prototype.toISOString` writes them (years outside 0000–9999 as `+010000`), hugeint as
 *   decimal text (a JSON string), bigint as a JSON number, a missing value `null` or an empty CSV field;
 * - NDJSON strings escaped as `JSON.stringify` does (`\"`, `\\`, `\b \t \n \f \r`, other control
 *   characters `\u00xx` in lower case, everything else as stored);
 * - CSV: a text cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return and not a plain decimal
 *   number gets a leading `'` (OWASP "CSV Injection"); a cell holding `"`, `,`, CR or LF is quoted with its
 *   quotes doubled (RFC 4180); records end with CRLF (the adapter's writer adds the line end).
 */
export type ExportFormat = 'ndjson' | 'csv';

/** What an export asks the store to write: the format, and the zone of `local_time` (none: no column). */
export type ExportText = { format: ExportFormat; timeZone: string | null };

/** How one engine writes the pieces; the zone, when used, is the query's parameter `zone`. */
export type ExportDialect = {
  /** A string literal of the dialect holding exactly `text`. */
  literal(text: string): string;
  /** The character of this code point (1–31). */
  char(code: number): string;
  concat(parts: string[]): string;
  replace(value: string, from: string, to: string): string;
  /** Whether `value` holds one of these characters (code points below 128). */
  containsAny(value: string, codes: number[]): string;
  /** Whether RE2 `pattern` matches somewhere in `value`. */
  matches(value: string, pattern: string): string;
  /** A number or a hugeint as decimal text. */
  decimal(value: string): string;
  /** A timestamp as ISO 8601 UTC, `…T12:00:00.000Z`. */
  isoTime(value: string): string;
  /** A timestamp as the zone's wall clock with its offset, `…T14:00:00.000+02:00`. */
  localTime(value: string): string;
};

const FORMULA_START = '^[=+@\\t\\r-]'; // = + @ tab CR -
const PLAIN_NUMBER = '^[+-]?[0-9]+([.][0-9]+)?$';
const CSV_QUOTED = [0x22, 0x2c, 0x0d, 0x0a]; // " , CR LF
const CONTROL = '[\\x00-\\x1f]';
// JSON.stringify's short escapes; the other control characters are \u00xx.
const SHORT_ESCAPES: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };

/**
 * A text value as the contents of a JSON string, but for control characters: those are escaped on the
 * whole line (`exportLineEnd`), where only string values can hold them, so that the 31 replacements are
 * written once per line rather than once per column (an engine plans each window's query again).
 */
function jsonEscaped(d: ExportDialect, value: string): string {
  return d.replace(d.replace(value, d.literal('\\'), d.literal('\\\\')), d.literal('"'), d.literal('\\"'));
}

/** The finished line from `exportLineSql`'s, named `line`: NDJSON's control characters escaped. */
export function exportLineEnd(d: ExportDialect, { format }: ExportText, line = 'line'): string {
  if (format === 'csv') return line;
  let escaped = line;
  for (let code = 1; code < 32; code++) {
    const sequence = SHORT_ESCAPES[code] ?? `\\u00${code.toString(16).padStart(2, '0')}`;
    escaped = d.replace(escaped, d.char(code), d.literal(sequence));
  }
  // Control characters are rare: the replacements run only for a line holding one.
  return `(CASE WHEN ${d.matches(line, d.literal(CONTROL))} THEN ${escaped} ELSE ${line} END)`;
}

/**
 * A text value as a CSV field: neutralised when formula-like, quoted when it must be. Written so that the
 * value appears once in the expression (an engine plans a long line's expression in time that grows
 * with its size): quotes are doubled always, which changes only a value that is quoted anyway.
 */
function csvText(d: ExportDialect, value: string): string {
  // An anchored pattern rather than `IN` a list of first characters: DuckDB plans an IN list slowly.
  const isFormula = `(${d.matches(value, d.literal(FORMULA_START))} AND NOT ${d.matches(value, d.literal(PLAIN_NUMBER))})`;
  const quote = `(CASE WHEN ${d.containsAny(value, CSV_QUOTED)} THEN ${d.literal('"')} ELSE ${d.literal('')} END)`;
  const prefix = `(CASE WHEN ${isFormula} THEN ${d.literal("'")} ELSE ${d.literal('')} END)`;
  return d.concat([quote, prefix, d.replace(value, d.literal('"'), d.literal('""')), quote]);
}

function ndjsonValue(d: ExportDialect, { name, kind }: EventColumn): string {
  const value =
    kind === 'varchar'
      ? d.concat([d.literal('"'), jsonEscaped(d, name), d.literal('"')])
      : kind === 'hugeint'
        ? d.concat([d.literal('"'), d.decimal(name), d.literal('"')])
        : kind === 'timestamp'
          ? d.concat([d.literal('"'), d.isoTime(name), d.literal('"')])
          : d.decimal(name);
  return `(CASE WHEN ${name} IS NULL THEN ${d.literal('null')} ELSE ${value} END)`;
}

function csvValue(d: ExportDialect, { name, kind }: EventColumn): string {
  const value =
    kind === 'varchar' ? csvText(d, name) : kind === 'timestamp' ? d.isoTime(name) : d.decimal(name);
  return `(CASE WHEN ${name} IS NULL THEN ${d.literal('')} ELSE ${value} END)`;
}

/**
 * The SQL expression of one exported line (without its line end), over the `events` row's columns; the
 * adapter selects it as `line` in a subquery and writes `exportLineEnd` of it.
 */
export function exportLineSql(d: ExportDialect, { format, timeZone }: ExportText): string {
  const parts: string[] = [];
  EVENT_COLUMNS.forEach((column, index) => {
    if (format === 'ndjson') {
      parts.push(d.literal(`${index === 0 ? '{' : ','}${JSON.stringify(column.name)}:`));
      parts.push(ndjsonValue(d, column));
    } else {
      if (index > 0) parts.push(d.literal(','));
      parts.push(csvValue(d, column));
    }
  });
  if (timeZone !== null) {
    parts.push(d.literal(format === 'ndjson' ? ',"local_time":"' : ','));
    parts.push(d.localTime('ts'));
    if (format === 'ndjson') parts.push(d.literal('"'));
  }
  if (format === 'ndjson') parts.push(d.literal('}'));
  return d.concat(parts);
}

/** What ends each line: CRLF for CSV (RFC 4180), LF for NDJSON. */
export const LINE_END: Record<ExportFormat, string> = { csv: '\r\n', ndjson: '\n' };
