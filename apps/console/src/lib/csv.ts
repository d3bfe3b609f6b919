/**
 * CSV files of what a table or chart shows (docs/analytics.md, "How the console shows them"): a header
 * row, RFC 4180 quoting and CRLF line ends, numbers unformatted (a rate is 0.4, not "40%"). Texts come
 * from events anyone with the public key can send, so a text a spreadsheet would run as a formula
 * (beginning with `=`, `+`, `-`, `@`, a tab or a carriage return, and not a plain number) is prefixed
 * with `'` (OWASP "CSV Injection"), as the server's raw export does (docs/data-access-and-privacy.md).
 */

import { localDate } from '@polyflow/contracts/time-zone';
import { displayTimeZone } from './format';

export type CsvValue = string | number | boolean | null | undefined;

/** A table as it goes into the file: the header and the rows, cells in header order. */
export interface CsvTable {
  header: readonly string[];
  rows: readonly (readonly CsvValue[])[];
}

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/** One field: numbers in plain decimal (no grouping, no exponent for integers); empty for null. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'number' ? numberText(value) : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  // RFC 4180 §2.6–2.7: a field holding a comma, a quote or a line break is quoted, its quotes doubled.
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  // String(1e21) is "1e+21": spreadsheets read it, but a plain integer is what was counted.
  return Number.isInteger(value) && Math.abs(value) >= 1e21 ? BigInt(value).toString() : String(value);
}

export function toCsv({ header, rows }: CsvTable): string {
  const lines = [header, ...rows].map((cells) => cells.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export interface CsvFileScope {
  /** The project's name, as the user named it. */
  project: string;
  /** The screen, e.g. "analytics". */
  screen: string;
  /** The period on screen: ISO instants, [from, to). */
  from: string;
  to: string;
}

/** "Demo DEX" → "demo-dex": safe in every file system, still readable. */
export function slug(text: string): string {
  const cleaned = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return cleaned.slice(0, 60) || 'project';
}

/**
 * `<project>_<screen>_<table>_<first day>_<last day>.csv`; the days are the project's local days, as the
 * period control shows them, and the last day is the last one included (a period ending at midnight ends
 * the day before).
 */
export function csvFileName(scope: CsvFileScope, table: string, zone: string = displayTimeZone()): string {
  const first = localDate(Date.parse(scope.from), zone);
  const last = localDate(Date.parse(scope.to) - 1, zone);
  return `${[slug(scope.project), slug(scope.screen), slug(table), first, last].join('_')}.csv`;
}
