import { type EventBatch, rowBatch } from '../event-batch.ts';
import type { EventRow } from '../event-row.ts';
import type { ExportRange } from '../event-store.ts';
import type { ClickHouse } from './client.ts';
import { EventRowSchema, SELECT_LIST } from './project-events.ts';
import { EVENTS, IN_RANGE } from './sql.ts';

/**
 * Rows per page: the page's JSON text and its rows, a few MB, are all the export holds in this process
 * at a time; ClickHouse finds each page's start through the sort key (project_id, ts, id).
 */
export const EXPORT_PAGE_ROWS = 10_000;

// The page is chosen in a subquery on the stored columns: SELECT_LIST names its epoch-ms values after
// the columns (`… AS ts`), and a ClickHouse alias would stand for the column in the WHERE beside it.
const page = (where: string) =>
  `SELECT ${SELECT_LIST}
   FROM (SELECT * FROM ${EVENTS} WHERE ${where} ORDER BY ts, id LIMIT {pageRows:UInt32})
   ORDER BY ts, id`;
const FIRST_PAGE = page(IN_RANGE);
// `ts` is stored to the millisecond (DateTime64(3)), so a row's ts in ms is its exact time: the next page
// starts strictly after (ts, id) of the last row, which the table's sort key (project_id, ts, id) finds.
const NEXT_PAGE = page(
  `${IN_RANGE} AND (ts, id) > (fromUnixTimestamp64Milli({afterMs:Int64}, 'UTC'), {afterId:String})`,
);

type Cursor = { afterMs: number; afterId: string };

function readPage(
  clickhouse: ClickHouse,
  projectId: string,
  range: ExportRange,
  cursor: Cursor | null,
  pageRows: number,
): Promise<EventRow[]> {
  const bounds = { project: projectId, from: range.from.getTime(), to: range.to.getTime(), pageRows };
  return cursor
    ? clickhouse.rows(NEXT_PAGE, { ...bounds, ...cursor }, EventRowSchema)
    : clickhouse.rows(FIRST_PAGE, bounds, EventRowSchema);
}

/**
 * The project's events in [from, to) of client time, a page at a time by keyset on (ts, id): each page is
 * its own short query (read with FINAL, so an event loaded twice is exported once), and the next is asked
 * for only when the consumer pulls.
 */
export async function* exportEvents(
  clickhouse: ClickHouse,
  projectId: string,
  range: ExportRange,
  pageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<EventBatch> {
  let cursor: Cursor | null = null;
  for (;;) {
    const page = await readPage(clickhouse, projectId, range, cursor, pageRows);
    const last = page.at(-1);
    if (!last) return;
    cursor = { afterMs: last.ts, afterId: last.id };
    yield rowBatch(page);
    if (page.length < pageRows) return;
  }
}
