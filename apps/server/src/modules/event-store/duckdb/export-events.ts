import type { DuckDBConnection } from '@duckdb/node-api';
import type { EventRow } from '../event-row.ts';
import type { ExportRange } from '../event-store.ts';
import type { ConnectionPool } from './connection-pool.ts';
import { SELECT_LIST } from './project-events.ts';

/** Rows per page: a few MB of JavaScript objects at most, and few enough queries for 10 M rows. */
export const EXPORT_PAGE_ROWS = 10_000;

const IN_RANGE = `project_id = $project
  AND ts >= make_timestamp($from::BIGINT) AND ts < make_timestamp($to::BIGINT)`;
const ORDER = `ORDER BY ts, id LIMIT ${EXPORT_PAGE_ROWS}`;
// `cursor_us` is the row's exact time, whatever its precision: the next page starts strictly after it.
const FIRST_PAGE = `SELECT ${SELECT_LIST}, epoch_us(ts) AS cursor_us FROM events WHERE ${IN_RANGE} ${ORDER}`;
// The plain `ts >= after` is implied by the OR beside it, but only it reaches the zone maps: each page
// then skips the row groups before the cursor instead of scanning the whole range again.
const NEXT_PAGE = `SELECT ${SELECT_LIST}, epoch_us(ts) AS cursor_us FROM events WHERE ${IN_RANGE}
  AND ts >= make_timestamp($after::BIGINT)
  AND (ts > make_timestamp($after::BIGINT) OR (ts = make_timestamp($after::BIGINT) AND id > $afterId))
  ${ORDER}`;

type Cursor = { afterUs: bigint; afterId: string };
type PageRow = EventRow & { cursor_us: bigint };

async function readPage(
  connection: DuckDBConnection,
  projectId: string,
  range: ExportRange,
  cursor: Cursor | null,
): Promise<PageRow[]> {
  const bounds = {
    project: projectId,
    from: BigInt(range.from.getTime()) * 1000n,
    to: BigInt(range.to.getTime()) * 1000n,
  };
  const reader = cursor
    ? await connection.runAndReadAll(NEXT_PAGE, { ...bounds, after: cursor.afterUs, afterId: cursor.afterId })
    : await connection.runAndReadAll(FIRST_PAGE, bounds);
  return reader.getRowObjectsJS() as PageRow[];
}

/**
 * The project's events in [from, to) of client time, a page at a time by keyset on (ts, id): each page is
 * its own short query on a pooled connection (a long export never holds a connection or a snapshot that
 * the dashboards or the checkpoint wait for), and the next is asked for only when the consumer pulls.
 * Each page skips to its start through the table's zone maps on ts (clustered by compaction, ADR 004).
 */
export async function* exportEvents(
  pool: ConnectionPool,
  projectId: string,
  range: ExportRange,
): AsyncGenerator<EventRow[]> {
  let cursor: Cursor | null = null;
  for (;;) {
    const page = await pool.use((connection) => readPage(connection, projectId, range, cursor));
    const last = page.at(-1);
    if (!last) return;
    cursor = { afterUs: last.cursor_us, afterId: last.id };
    yield page.map(({ cursor_us: _, ...row }) => row);
    if (page.length < EXPORT_PAGE_ROWS) return;
  }
}
