import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import type { EventBatch } from '../event-batch.ts';
import { EVENT_COLUMNS, type EventColumn } from '../event-row.ts';
import type { ExportRange } from '../event-store.ts';
import { cutWindows, type Span } from '../export-windows.ts';
import type { ConnectionPool } from './connection-pool.ts';

/**
 * Rows a window of the export aims at: each window is one query, read whole (DuckDB's result, in native
 * memory: ~15–30 MB at this size) and then handed on while no connection or snapshot is held. Larger
 * windows cost fewer queries; the export's memory grows with them (docs/decisions/028).
 */
export const EXPORT_WINDOW_ROWS = 20_000;

const IN_PROJECT = 'project_id = $project';
const IN_WINDOW = `${IN_PROJECT}
  AND events.ts >= make_timestamp($fromUs::BIGINT) AND events.ts < make_timestamp($toUs::BIGINT)`;

// project_id is the export's own parameter, written from JavaScript. Times and BIGINTs arrive as DOUBLE
// (epoch ms; integers below 2^53). Every text column (VARCHAR, and HUGEINT as its decimal text, which is
// what both formats write) arrives as its length in bytes, NULL when missing, and all of a row's texts
// as one string: taking a string out of DuckDB's vectors costs a call into the binding (~1 µs) and a
// buffer each, so one per row rather than one per value (docs/decisions/028).
const READ_COLUMNS = EVENT_COLUMNS.filter(({ name }) => name !== 'project_id');
const isNumber = ({ kind }: EventColumn) => kind === 'timestamp' || kind === 'bigint';
const NUMBER_COLUMNS = READ_COLUMNS.filter(isNumber);
const TEXT_COLUMNS = READ_COLUMNS.filter((column) => !isNumber(column));
const numberOf = ({ name, kind }: EventColumn) =>
  kind === 'timestamp' ? `epoch_ms(${name})::DOUBLE` : `${name}::DOUBLE`;
const textOf = ({ name, kind }: EventColumn) => (kind === 'hugeint' ? `${name}::VARCHAR` : name);
const WINDOW_ROWS_SQL = `SELECT ${[
  ...NUMBER_COLUMNS.map(numberOf),
  ...TEXT_COLUMNS.map((column) => `strlen(${textOf(column)})::INTEGER`),
  `concat(${TEXT_COLUMNS.map(textOf).join(', ')})`,
].join(', ')} FROM events WHERE ${IN_WINDOW}`;
/** How each column of a row is written, in table order: a number (time or not) or the next text. */
const SLOTS = READ_COLUMNS.map((column) =>
  isNumber(column)
    ? { number: NUMBER_COLUMNS.indexOf(column), isTime: column.kind === 'timestamp' }
    : { text: TEXT_COLUMNS.indexOf(column) },
);
const TS_NUMBER = NUMBER_COLUMNS.findIndex(({ name }) => name === 'ts');
const ID_TEXT = TEXT_COLUMNS.findIndex(({ name }) => name === 'id');
const HISTOGRAM_SQL = `SELECT ((epoch_ms(ts) - $fromMs) // $widthMs)::DOUBLE AS bucket, count(*)::DOUBLE AS n
  FROM events WHERE ${IN_WINDOW} GROUP BY bucket ORDER BY bucket`;

const micros = (ms: number) => BigInt(ms) * 1000n;

/**
 * [fromMs, toMs) cut into spans of about `windowRows` rows each (export-windows.ts), from DuckDB's count
 * of the project's rows per bucket of `ts`.
 */
export async function windowsOf(
  connection: DuckDBConnection,
  projectId: string,
  span: Span,
  windowRows: number,
): Promise<Span[]> {
  const windows = await cutWindows(
    async (part, widthMs) => {
      const reader = await connection.runAndReadAll(HISTOGRAM_SQL, {
        project: projectId,
        fromUs: micros(part.fromMs),
        toUs: micros(part.toMs),
        fromMs: BigInt(part.fromMs),
        widthMs: BigInt(widthMs),
      });
      return reader.getRows() as [number, number][];
    },
    span,
    windowRows,
  );
  return windows.map(({ fromMs, toMs }) => ({ fromMs, toMs }));
}

type Validity = Uint8Array | null;
/** A chunk of a window as DuckDB holds it: typed views of its vectors, and the chunk that owns them. */
type Chunk = {
  rowCount: number;
  numbers: { values: Float64Array; valid: Validity }[];
  lengths: { values: Int32Array; valid: Validity }[];
  /** Each row's texts, one string_t per row (16 bytes: its length, then the text or a pointer to it). */
  texts: Uint8Array;
  textsView: DataView;
  handle: DuckDBDataChunk;
};

const VECTOR_ROWS = duckdb.vector_size();

function validityOf(vector: duckdb.Vector, rowCount: number): Validity {
  // One bit per row in 64-bit words; none when every value is there.
  const valid = duckdb.vector_get_validity(vector, Math.ceil(rowCount / 64) * 8);
  return valid && valid.byteLength > 0 ? valid : null;
}

function chunkOf(handle: DuckDBDataChunk): Chunk {
  const rowCount = handle.rowCount;
  const vector = (index: number) => duckdb.data_chunk_get_vector(handle.chunk, index);
  const numbers = NUMBER_COLUMNS.map((_, index) => {
    const data = duckdb.vector_get_data(vector(index), rowCount * 8);
    return {
      values: new Float64Array(data.buffer, data.byteOffset, rowCount),
      valid: validityOf(vector(index), rowCount),
    };
  });
  const lengths = TEXT_COLUMNS.map((_, text) => {
    const index = NUMBER_COLUMNS.length + text;
    const data = duckdb.vector_get_data(vector(index), rowCount * 4);
    return {
      values: new Int32Array(data.buffer, data.byteOffset, rowCount),
      valid: validityOf(vector(index), rowCount),
    };
  });
  const texts = duckdb.vector_get_data(vector(NUMBER_COLUMNS.length + TEXT_COLUMNS.length), rowCount * 16);
  const textsView = new DataView(texts.buffer, texts.byteOffset, texts.byteLength);
  return { rowCount, numbers, lengths, texts, textsView, handle };
}

const isValid = (valid: Validity, row: number) =>
  valid === null || ((valid[row >> 3] as number) & (1 << (row & 7))) !== 0;

/** A row's texts: inline when 12 bytes at most, else copied out from where the pointer points. */
function rowTexts(chunk: Chunk, row: number): { bytes: Uint8Array; start: number } {
  const at = row * 16;
  const length = chunk.textsView.getUint32(at, true);
  if (length <= 12) return { bytes: chunk.texts, start: at + 4 };
  const bytes = duckdb.get_data_from_pointer(
    chunk.texts.buffer as ArrayBuffer,
    chunk.texts.byteOffset + at + 8,
    length,
  );
  return { bytes, start: 0 };
}

/** A row's id, the first text column (the sort's comparisons of rows of one millisecond, rare). */
function idBytes(chunk: Chunk, row: number): Uint8Array {
  const { bytes, start } = rowTexts(chunk, row);
  let offset = start;
  for (let text = 0; text < ID_TEXT; text++) {
    const { values, valid } = chunk.lengths[text] as Chunk['lengths'][number];
    if (isValid(valid, row)) offset += values[row] as number;
  }
  return bytes.subarray(offset, offset + (chunk.lengths[ID_TEXT]?.values[row] as number));
}

/** A window's rows, by (chunk, row) packed into one number. */
const chunkIndex = (position: number) => Math.floor(position / VECTOR_ROWS);
const rowIndex = (position: number) => position % VECTOR_ROWS;

/**
 * The positions of a window's rows in (ts, id) order. DuckDB sorting the window would copy every row's
 * columns once more; the table is clustered by ts already (ADR 004), so this sort of numbers mostly
 * confirms an order (TimSort is linear on sorted input) and compares ids, as bytes like DuckDB's
 * VARCHAR order, only for rows of the same millisecond.
 */
function rowOrder(chunks: Chunk[]): number[] {
  const positions: number[] = [];
  chunks.forEach((chunk, index) => {
    for (let row = 0; row < chunk.rowCount; row++) positions.push(index * VECTOR_ROWS + row);
  });
  const tsOf = (position: number) =>
    (chunks[chunkIndex(position)] as Chunk).numbers[TS_NUMBER]?.values[rowIndex(position)] as number;
  const idOf = (position: number) => idBytes(chunks[chunkIndex(position)] as Chunk, rowIndex(position));
  return positions.sort((a, b) => tsOf(a) - tsOf(b) || Buffer.compare(idOf(a), idOf(b)));
}

/** Rows of a window handed on at a time: one Buffer of text each (~1–2 MB of NDJSON). */
export const EXPORT_BATCH_ROWS = 2_048;

function windowBatch(chunks: Chunk[], positions: number[], projectId: Uint8Array): EventBatch {
  return {
    rowCount: positions.length,
    writeTo(writer) {
      for (const position of positions) {
        const chunk = chunks[chunkIndex(position)] as Chunk;
        const row = rowIndex(position);
        const { bytes, start } = rowTexts(chunk, row);
        let offset = start;
        writer.text(projectId, 0, projectId.length);
        for (const slot of SLOTS) {
          if (slot.text === undefined) {
            const { values, valid } = chunk.numbers[slot.number] as Chunk['numbers'][number];
            if (!isValid(valid, row)) writer.missing();
            else if (slot.isTime) writer.time(values[row] as number);
            else writer.number(values[row] as number);
          } else {
            const { values, valid } = chunk.lengths[slot.text] as Chunk['lengths'][number];
            if (!isValid(valid, row)) writer.missing();
            else {
              const end = offset + (values[row] as number);
              writer.text(bytes, offset, end);
              offset = end;
            }
          }
        }
        writer.endRow();
      }
    },
  };
}

/**
 * A window's rows, all read before the connection is let go. Streamed rather than materialized: DuckDB
 * hands over the chunks it produces, where a materialized result is copied once more chunk by chunk.
 */
async function readWindow(pool: ConnectionPool, projectId: string, window: Span): Promise<Chunk[]> {
  return pool.use(
    projectId,
    async (connection) => {
      const result = await connection.stream(WINDOW_ROWS_SQL, {
        project: projectId,
        fromUs: micros(window.fromMs),
        toUs: micros(window.toMs),
      });
      const chunks: Chunk[] = [];
      for (
        let chunk = await result.fetchChunk();
        chunk && chunk.rowCount > 0;
        chunk = await result.fetchChunk()
      ) {
        chunks.push(chunkOf(chunk));
      }
      return chunks;
      // A long read: it leaves one connection to the dashboards' questions (ADR 047).
    },
    true,
  );
}

/**
 * The project's events in [from, to) of client time, in (ts, id) order: the range cut into windows of
 * about EXPORT_WINDOW_ROWS rows (a histogram of ts, one query), then one query per window on a pooled
 * connection, one window ahead of the one the consumer is taking. A query runs only as long
 * as DuckDB takes to produce its window, so a slow client never holds a connection or a snapshot that
 * the dashboards or a checkpoint wait for. Each window is handed on in batches of EXPORT_BATCH_ROWS that
 * write their values straight from DuckDB's vectors (docs/decisions/028).
 */
export async function* exportEvents(
  pool: ConnectionPool,
  projectId: string,
  range: ExportRange,
  windowRows = EXPORT_WINDOW_ROWS,
): AsyncGenerator<EventBatch> {
  const span = { fromMs: range.from.getTime(), toMs: range.to.getTime() };
  const windows = await pool.use(
    projectId,
    (connection) => windowsOf(connection, projectId, span, windowRows),
    true,
  );
  const projectBytes = Buffer.from(projectId);
  // The next window is read while this one is written: DuckDB's threads and the JavaScript thread work
  // at once, and a slow client holds two windows at most.
  let next = windows.length > 0 ? readWindow(pool, projectId, windows[0] as Span) : null;
  for (let index = 0; next; index++) {
    const chunks = await next;
    const following = windows[index + 1];
    next = following ? readWindow(pool, projectId, following) : null;
    // A consumer that stops pulling leaves the read ahead unawaited: its failure is not this one's.
    next?.catch(() => undefined);
    const positions = rowOrder(chunks);
    for (let start = 0; start < positions.length; start += EXPORT_BATCH_ROWS) {
      yield windowBatch(chunks, positions.slice(start, start + EXPORT_BATCH_ROWS), projectBytes);
    }
  }
}
