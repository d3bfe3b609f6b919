import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { EVENT_COLUMNS, type EventRow } from '../event-row.ts';
import type { ExportRange } from '../event-store.ts';
import type { ConnectionPool } from './connection-pool.ts';
import { selectColumn } from './project-events.ts';

/**
 * Rows per query. Kept at most 5,000: above that DuckDB may answer an `ORDER BY … LIMIT` with a full sort
 * of every row left instead of a top-N (its optimizer sorts fully when the limit is more than 0.7 % of the
 * rows it expects), which is what made the export's memory grow (ADR 024).
 */
export const EXPORT_PAGE_ROWS = 5_000;

// Every column but project_id, which is the export's own parameter: one long string per row less to copy
// out of DuckDB.
const READ_COLUMNS = EVENT_COLUMNS.filter(({ name }) => name !== 'project_id');
const READ_NAMES = READ_COLUMNS.map(({ name }) => name);

// `events.ts` names the column; a bare `ts` in ORDER BY would be the select list's `… AS ts` (epoch ms).
const IN_RANGE = `project_id = $project
  AND events.ts >= make_timestamp($from::BIGINT) AND events.ts < make_timestamp($to::BIGINT)`;
// Strictly after the last row of the page before. The plain `ts >= after` is implied by the OR beside
// it, but only it reaches the zone maps: the scan skips the row groups before the cursor.
const AFTER = `AND events.ts >= make_timestamp($afterUs::BIGINT)
  AND (events.ts > make_timestamp($afterUs::BIGINT)
       OR (events.ts = make_timestamp($afterUs::BIGINT) AND events.id > $afterId))`;
// Up to the page's last row, included; `ts <= last` again for the zone maps.
const UP_TO = `AND events.ts <= make_timestamp($lastUs::BIGINT)
  AND (events.ts < make_timestamp($lastUs::BIGINT) OR events.id <= $lastId)`;

/**
 * The (ts, id) of the page's last row, found on those two columns alone: a top-N whose threshold DuckDB
 * pushes into the scan, so that on a table clustered by ts (compaction, ADR 004) it reads the row groups
 * of about one page, however many rows the range has left.
 */
const pageEnd = (after: string, pageRows: number) =>
  `SELECT epoch_us(ts) AS us, id FROM events WHERE ${IN_RANGE} ${after}
   ORDER BY events.ts, events.id LIMIT 1 OFFSET ${pageRows - 1}`;
/** Every column of the rows between two keys: a range the zone maps narrow, sorted in memory. */
const pageRowsBetween = (after: string, upTo: string) =>
  `SELECT ${READ_COLUMNS.map(selectColumn).join(', ')} FROM events
   WHERE ${IN_RANGE} ${after} ${upTo} ORDER BY events.ts, events.id`;

type Cursor = { afterUs: bigint; afterId: string };
type Params = Record<string, string | bigint>;
/** A page as DuckDB holds it (its result's chunks, ≤ 2,048 rows each), and where the next one starts. */
type Page = { chunks: DuckDBDataChunk[]; next: Cursor | null };

async function readPage(
  connection: DuckDBConnection,
  projectId: string,
  range: ExportRange,
  cursor: Cursor | null,
  pageRows: number,
): Promise<Page> {
  const after = cursor ? AFTER : '';
  const params: Params = {
    project: projectId,
    from: BigInt(range.from.getTime()) * 1000n,
    to: BigInt(range.to.getTime()) * 1000n,
    ...(cursor ?? {}),
  };
  const end = (await connection.runAndReadAll(pageEnd(after, pageRows), params)).getRowObjectsJS()[0] as
    | { us: bigint; id: string }
    | undefined;
  // No page-th row: what is left of the range is less than a page, and this page is the last.
  const result = end
    ? await connection.run(pageRowsBetween(after, UP_TO), { ...params, lastUs: end.us, lastId: end.id })
    : await connection.run(pageRowsBetween(after, ''), params);
  const chunks = Array.from({ length: result.chunkCount }, (_, index) => result.getChunk(index));
  // The next page starts after the key found, not after the last row read: a row deleted in between
  // (retention, forget) would otherwise make the page look like the last.
  return { chunks, next: end ? { afterUs: end.us, afterId: end.id } : null };
}

/**
 * Rows handed on at a time. The rows, their strings and their text are all garbage a moment later; kept
 * this small, what is alive when V8's young generation is collected is small too, so each collection is
 * quick and little is promoted to the old generation (a page of 5,000 rows at a time spent a quarter of the
 * export's CPU in the collector).
 */
export const EXPORT_SLICE_ROWS = 500;

type Vectors = ReturnType<DuckDBDataChunk['getColumnVector']>[];

/**
 * Rows `from` to `to` of a chunk, read value by value from its vectors: VARCHAR, DOUBLE and HUGEINT values
 * arrive as the string, number and bigint EventRow types them, with none of the converters
 * `getRowObjectsJS` or `getColumnsJS` run over every value and no column arrays in between.
 */
function rowsOf(vectors: Vectors, projectId: string, from: number, to: number): EventRow[] {
  const rows: EventRow[] = new Array(to - from);
  for (let index = from; index < to; index++) {
    const row: Record<string, unknown> = { project_id: projectId };
    for (let column = 0; column < vectors.length; column++) {
      row[READ_NAMES[column] as string] = vectors[column]?.getItem(index);
    }
    rows[index - from] = row as EventRow;
  }
  return rows;
}

/**
 * The project's events in [from, to) of client time, a page at a time by keyset on (ts, id): each page is
 * its own two short queries on a pooled connection (a long export never holds a connection or a snapshot
 * that the dashboards or the checkpoint wait for), and the next is asked for only when the consumer pulls.
 * Neither query sorts more than a page of full rows (docs/decisions/024). A page is handed on in slices
 * of EXPORT_SLICE_ROWS, each converted to rows only when pulled: the JavaScript side holds a few hundred
 * rows at a time, which die young (docs/decisions/027).
 */
export async function* exportEvents(
  pool: ConnectionPool,
  projectId: string,
  range: ExportRange,
  pageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<EventRow[]> {
  let cursor: Cursor | null = null;
  for (;;) {
    const page: Page = await pool.use((connection) =>
      readPage(connection, projectId, range, cursor, pageRows),
    );
    // Each chunk is let go of once its rows are built: DuckDB frees it when its handle is collected.
    for (let chunk = page.chunks.shift(); chunk; chunk = page.chunks.shift()) {
      const vectors = READ_NAMES.map((_, index) => (chunk as DuckDBDataChunk).getColumnVector(index));
      for (let from = 0; from < chunk.rowCount; from += EXPORT_SLICE_ROWS) {
        yield rowsOf(vectors, projectId, from, Math.min(from + EXPORT_SLICE_ROWS, chunk.rowCount));
      }
    }
    if (!page.next) return;
    cursor = page.next;
  }
}
