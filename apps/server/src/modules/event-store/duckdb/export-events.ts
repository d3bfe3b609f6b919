import type { DuckDBConnection, DuckDBResultReader } from '@duckdb/node-api';
import type { EventRow } from '../event-row.ts';
import type { ExportRange } from '../event-store.ts';
import type { ConnectionPool } from './connection-pool.ts';
import { SELECT_LIST } from './project-events.ts';

/**
 * Rows per page: a few MB of JavaScript objects. Kept at most 5,000: above that DuckDB may answer an
 * `ORDER BY … LIMIT` with a full sort of every row left instead of a top-N (its optimizer sorts fully
 * when the limit is more than 0.7 % of the rows it expects), which is what made the export's memory grow.
 */
export const EXPORT_PAGE_ROWS = 5_000;

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
  `SELECT ${SELECT_LIST}, epoch_us(events.ts) AS cursor_us FROM events
   WHERE ${IN_RANGE} ${after} ${upTo} ORDER BY events.ts, events.id`;

type Cursor = { afterUs: bigint; afterId: string };
type PageRow = EventRow & { cursor_us: bigint };
type Params = Record<string, string | bigint>;

/**
 * The page's rows, built from its columns: DuckDB's own `getRowObjectsJS` converts value by value and
 * takes several times as long, most of an export's CPU.
 */
function pageRowsOf(reader: DuckDBResultReader): PageRow[] {
  const names = reader.columnNames();
  const columns = reader.getColumnsJS();
  const rows: PageRow[] = new Array(reader.currentRowCount);
  for (let index = 0; index < rows.length; index++) {
    const row: Record<string, unknown> = {};
    for (let column = 0; column < names.length; column++) {
      row[names[column] as string] = columns[column]?.[index];
    }
    rows[index] = row as PageRow;
  }
  return rows;
}

async function readPage(
  connection: DuckDBConnection,
  projectId: string,
  range: ExportRange,
  cursor: Cursor | null,
  pageRows: number,
): Promise<PageRow[]> {
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
  // No page-th row: what is left of the range is less than a page.
  const reader = end
    ? await connection.runAndReadAll(pageRowsBetween(after, UP_TO), {
        ...params,
        lastUs: end.us,
        lastId: end.id,
      })
    : await connection.runAndReadAll(pageRowsBetween(after, ''), params);
  return pageRowsOf(reader);
}

/**
 * The project's events in [from, to) of client time, a page at a time by keyset on (ts, id): each page is
 * its own two short queries on a pooled connection (a long export never holds a connection or a snapshot
 * that the dashboards or the checkpoint wait for), and the next is asked for only when the consumer pulls.
 * Neither query sorts more than a page of full rows, so memory stays that of a page whatever the range
 * holds (docs/decisions/024).
 */
export async function* exportEvents(
  pool: ConnectionPool,
  projectId: string,
  range: ExportRange,
  pageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<EventRow[]> {
  let cursor: Cursor | null = null;
  for (;;) {
    const page = await pool.use((connection) => readPage(connection, projectId, range, cursor, pageRows));
    const last = page.at(-1);
    if (!last) return;
    cursor = { afterUs: last.cursor_us, afterId: last.id };
    yield page.map(({ cursor_us: _, ...row }) => row);
    if (page.length < pageRows) return;
  }
}
