import { wallClockMs } from '@polyflow/contracts/time-zone';
import type { EventBatch, EventValueWriter } from '../event-store/event-batch.ts';
import { EVENT_COLUMNS } from '../event-store/event-row.ts';
import type { ExportFormat } from '../event-store/event-store.ts';

/**
 * The export's two formats, one line per stored event with every column of event-row.ts in table order.
 * Times are ISO 8601 UTC with milliseconds, big numbers (wei, gas) decimal text so that no reader
 * rounds them, and a missing value is JSON null or an empty CSV field. NDJSON writes values as stored
 * (raw data for scripts and BI tools); CSV, which people open in spreadsheets, neutralises formulas
 * (OWASP "CSV Injection"): a text cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return is
 * prefixed with `'`, unless it is a plain decimal number such as `-32603` (`isFormulaLike`).
 *
 * The bytes are those `JSON.stringify` of a record and RFC 4180 give, written straight from the values a
 * batch hands over (UTF-8 bytes, numbers) into one buffer, with no object, string or array per row
 * (docs/decisions/028): an export's rows are millions.
 *
 * Both stores write these lines themselves now, on their own threads (event-store/export-lines.ts,
 * docs/decisions/077): this formatter is the reference the engines' bytes are tested against, and what
 * formats the batches of a store that hands values (`EventBatch.writeTo`) rather than text.
 */
export type { ExportFormat };

/** The optional last column: `ts` in the project's time zone, ISO 8601 with its offset. */
export const LOCAL_TIME_COLUMN = 'local_time';
const TS_COLUMN = EVENT_COLUMNS.findIndex(({ name }) => name === 'ts');

const DAY_MS = 86_400_000;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
const HEX = '0123456789abcdef';
// JSON.stringify's short escapes; the other control characters are \u00xx.
const SHORT_ESCAPES: Record<number, number> = { 8: 0x62, 9: 0x74, 10: 0x6e, 12: 0x66, 13: 0x72 };

const INITIAL_BYTES = 1 << 16;

/** A growing byte buffer that hands its content on as a Buffer of its own. */
class Output {
  bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  length = 0;

  reserve(count: number): void {
    if (this.length + count <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + count));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  byte(value: number): void {
    this.reserve(1);
    this.bytes[this.length++] = value;
  }

  /** ASCII text (numbers, times): short, so a loop beats a call into the Buffer's encoder. */
  ascii(text: string): void {
    this.reserve(text.length);
    const target = this.bytes;
    let at = this.length;
    for (let index = 0; index < text.length; index++) target[at++] = text.charCodeAt(index);
    this.length = at;
  }

  utf8(text: string): void {
    this.reserve(text.length * 3);
    this.length += this.bytes.write(text, this.length, 'utf8');
  }

  copy(source: Uint8Array, start: number, end: number): void {
    this.reserve(end - start);
    const target = this.bytes;
    if (end - start > 32) {
      target.set(source.subarray(start, end), this.length);
      this.length += end - start;
      return;
    }
    let at = this.length;
    for (let index = start; index < end; index++) target[at++] = source[index] as number;
    this.length = at;
  }

  /** The bytes written, handed on as they are (no copy); writing goes on in a new buffer. */
  take(): Buffer {
    const taken = this.bytes.subarray(0, this.length);
    this.bytes = Buffer.allocUnsafe(Math.max(INITIAL_BYTES, Math.ceil(this.length * 1.25)));
    this.length = 0;
    return taken;
  }
}

const ZERO = 0x30;

/** Two digits of a number below 100. */
function twoDigits(target: Buffer, at: number, value: number): void {
  target[at] = ZERO + Math.floor(value / 10);
  target[at + 1] = ZERO + (value % 10);
}

/**
 * ISO 8601 times as `Date.prototype.toISOString` writes them, the day's part (`2026-03-01T`) made once
 * per day: an export's rows come in time order, so most share the day of the row before.
 */
function createTimeWriter() {
  let day = Number.NaN;
  let dayBytes = Buffer.alloc(0);
  let isPlainDay = false;
  return (output: Output, ms: number) => {
    const rowDay = Math.floor(ms / DAY_MS);
    if (rowDay !== day) {
      day = rowDay;
      const dayText = new Date(rowDay * DAY_MS).toISOString().slice(0, 11);
      dayBytes = Buffer.from(dayText, 'latin1');
      // Years outside 0000–9999 have a sign and six digits: written whole below.
      isPlainDay = dayText.length === 11 && dayText[10] === 'T';
    }
    if (!isPlainDay || !Number.isInteger(ms)) {
      output.ascii(new Date(ms).toISOString());
      return;
    }
    const inDay = ms - rowDay * DAY_MS;
    const seconds = Math.floor(inDay / 1000);
    const millis = inDay - seconds * 1000;
    output.reserve(24);
    output.copy(dayBytes, 0, 11);
    const target = output.bytes;
    const at = output.length;
    twoDigits(target, at, Math.floor(seconds / 3600));
    target[at + 2] = 0x3a; // :
    twoDigits(target, at + 3, Math.floor(seconds / 60) % 60);
    target[at + 5] = 0x3a;
    twoDigits(target, at + 6, seconds % 60);
    target[at + 8] = 0x2e; // .
    target[at + 9] = ZERO + Math.floor(millis / 100);
    twoDigits(target, at + 10, millis % 100);
    target[at + 12] = 0x5a; // Z
    output.length = at + 13;
  };
}

const SLOT_MS = 15 * 60_000;

/** `+02:00`, `-04:00`, `+05:30`: an offset in minutes as ISO 8601 writes it. */
function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}

/**
 * `ts` as the zone's wall clock with its offset (`2026-03-29T03:30:00.000+02:00`; `+00:00` in UTC). Zones
 * change their offset on whole quarter hours of UTC: the offset is looked up once per 15 minutes of UTC
 * (checked at both ends of the slot, per row where they differ), not per row.
 */
function createLocalTimeWriter(zone: string) {
  let slot = Number.NaN;
  let offsetMs: number | null = null;
  const offsetAt = (ms: number) => wallClockMs(ms, zone) - ms;
  return (output: Output, ms: number) => {
    const rowSlot = Math.floor(ms / SLOT_MS);
    if (rowSlot !== slot) {
      slot = rowSlot;
      const first = offsetAt(rowSlot * SLOT_MS);
      offsetMs = first === offsetAt(rowSlot * SLOT_MS + SLOT_MS - 1) ? first : null;
    }
    let offset = offsetMs ?? offsetAt(ms);
    // A stored time at the very end of what a Date holds (year 275760) has no wall clock past it: UTC.
    if (!Number.isFinite(offset) || !Number.isFinite(new Date(ms + offset).getTime())) offset = 0;
    const wall = new Date(ms + offset).toISOString();
    output.ascii(wall.endsWith('Z') ? wall.slice(0, -1) : wall);
    output.ascii(offsetText(Math.round(offset / 60_000)));
  };
}

/** Where the local time column's value comes from: the row's `ts`, kept as the batch writes it. */
type LocalTime = { write: (output: Output, ms: number) => void; tsMs: number };

const localTimeOf = (zone: string | null): LocalTime | null =>
  zone === null ? null : { write: createLocalTimeWriter(zone), tsMs: 0 };

/** A text formatter: the writer a batch writes into, and the bytes written so far. */
type Formatter = EventValueWriter & { take(): Buffer };

// Each column's key with what comes before it: `{"project_id":`, then `,"id":`, …
const NDJSON_KEYS = EVENT_COLUMNS.map(({ name }, index) =>
  Buffer.from(`${index === 0 ? '{' : ','}${JSON.stringify(name)}:`),
);

const NDJSON_LOCAL_TIME_KEY = Buffer.from(`,${JSON.stringify(LOCAL_TIME_COLUMN)}:`);

/** One JSON object per line, as `JSON.stringify` writes a record of the row's values in table order. */
function ndjsonFormatter(localTime: LocalTime | null): Formatter {
  const output = new Output();
  const writeTime = createTimeWriter();
  let column = 0;
  const key = () => {
    const bytes = NDJSON_KEYS[column++] as Buffer;
    output.copy(bytes, 0, bytes.length);
  };
  return {
    text(bytes, start, end) {
      key();
      output.reserve((end - start) * 6 + 2);
      const target = output.bytes;
      let at = output.length;
      target[at++] = QUOTE;
      for (let index = start; index < end; index++) {
        const byte = bytes[index] as number;
        if (byte >= 0x20 && byte !== QUOTE && byte !== BACKSLASH) {
          target[at++] = byte;
        } else if (byte === QUOTE || byte === BACKSLASH) {
          target[at++] = BACKSLASH;
          target[at++] = byte;
        } else {
          target[at++] = BACKSLASH;
          const short = SHORT_ESCAPES[byte];
          if (short !== undefined) target[at++] = short;
          else {
            target[at++] = 0x75; // u00xx
            target[at++] = 0x30;
            target[at++] = 0x30;
            target[at++] = HEX.charCodeAt(byte >> 4);
            target[at++] = HEX.charCodeAt(byte & 15);
          }
        }
      }
      target[at++] = QUOTE;
      output.length = at;
    },
    string(value) {
      key();
      output.utf8(JSON.stringify(value));
    },
    number(value) {
      key();
      output.ascii(JSON.stringify(value));
    },
    time(ms) {
      if (localTime && column === TS_COLUMN) localTime.tsMs = ms;
      key();
      output.byte(QUOTE);
      writeTime(output, ms);
      output.byte(QUOTE);
    },
    missing() {
      key();
      output.ascii('null');
    },
    endRow() {
      if (localTime) {
        output.copy(NDJSON_LOCAL_TIME_KEY, 0, NDJSON_LOCAL_TIME_KEY.length);
        output.byte(QUOTE);
        localTime.write(output, localTime.tsMs);
        output.byte(QUOTE);
      }
      output.byte(0x7d); // }
      output.byte(LF);
      column = 0;
    },
    take: () => output.take(),
  };
}

const APOSTROPHE = 0x27;
const FORMULA_STARTS = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d]); // = + - @ tab CR
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/**
 * Whether a spreadsheet could read the cell (bytes `start` to `end`, UTF-8) as a formula: it begins with
 * `=`, `+`, `-`, `@`, a tab or a carriage return and is not a plain decimal number.
 */
export function isFormulaLike(bytes: Uint8Array, start: number, end: number): boolean {
  if (start >= end || !FORMULA_STARTS.has(bytes[start] as number)) return false;
  return !PLAIN_NUMBER.test(
    Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1'),
  );
}

/**
 * A CSV field: a formula-like text prefixed with `'`, then RFC 4180 (a field holding a comma, a double
 * quote or a line break is quoted, its quotes doubled).
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_STARTS.has(text.charCodeAt(0)) && !PLAIN_NUMBER.test(text))
    text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvFormatter(localTime: LocalTime | null): Formatter {
  const output = new Output();
  const writeTime = createTimeWriter();
  let column = 0;
  const separate = () => {
    if (column++ > 0) output.byte(COMMA);
  };
  return {
    text(bytes, start, end) {
      separate();
      const isFormula = isFormulaLike(bytes, start, end);
      let isQuoted = false;
      for (let index = start; index < end && !isQuoted; index++) {
        const byte = bytes[index];
        isQuoted = byte === QUOTE || byte === COMMA || byte === CR || byte === LF;
      }
      if (!isQuoted) {
        if (isFormula) output.byte(APOSTROPHE);
        output.copy(bytes, start, end);
        return;
      }
      output.reserve((end - start) * 2 + 3);
      const target = output.bytes;
      let at = output.length;
      target[at++] = QUOTE;
      if (isFormula) target[at++] = APOSTROPHE;
      for (let index = start; index < end; index++) {
        const byte = bytes[index] as number;
        if (byte === QUOTE) target[at++] = QUOTE;
        target[at++] = byte;
      }
      target[at++] = QUOTE;
      output.length = at;
    },
    string(value) {
      separate();
      output.utf8(csvField(value));
    },
    number(value) {
      separate();
      output.ascii(String(value));
    },
    time(ms) {
      if (localTime && column === TS_COLUMN) localTime.tsMs = ms;
      separate();
      writeTime(output, ms);
    },
    missing() {
      separate();
    },
    endRow() {
      if (localTime) {
        output.byte(COMMA);
        localTime.write(output, localTime.tsMs);
      }
      output.byte(CR);
      output.byte(LF);
      column = 0;
    },
    take: () => output.take(),
  };
}

export const CSV_HEADER = `${EVENT_COLUMNS.map(({ name }) => name).join(',')}\r\n`;
const CSV_HEADER_WITH_LOCAL_TIME = `${EVENT_COLUMNS.map(({ name }) => name).join(',')},${LOCAL_TIME_COLUMN}\r\n`;

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
};

/** Lets every other callback waiting on the event loop (requests, acknowledgements) run first. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The export as text, a Buffer per batch of rows: pulled one at a time by the HTTP response. A batch the
 * engine formatted (`batch.text`) is handed on as it is. Each batch of values
 * (at most 2,048 rows, a few milliseconds) is formatted in a turn of the event loop of its own, after
 * whatever else waits there: however many exports run, a request waits for at most one batch of each.
 * With `localTimeZone`, each row ends with `local_time`: its `ts` in that zone (`createLocalTimeWriter`).
 */
export async function* formatEvents(
  batches: AsyncIterable<EventBatch>,
  format: ExportFormat,
  localTimeZone: string | null = null,
) {
  const localTime = localTimeOf(localTimeZone);
  const formatter = format === 'csv' ? csvFormatter(localTime) : ndjsonFormatter(localTime);
  if (format === 'csv') yield Buffer.from(localTime ? CSV_HEADER_WITH_LOCAL_TIME : CSV_HEADER);
  for await (const batch of batches) {
    if (batch.text) {
      yield batch.text;
      continue;
    }
    await nextTurn();
    batch.writeTo(formatter);
    yield formatter.take();
  }
}
