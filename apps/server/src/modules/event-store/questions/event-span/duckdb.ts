import type { EventSpan } from '../../../../reading/time-range.ts';
import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import { EventSpanRow, eventSpanOf } from './question.ts';

export async function eventSpan(connection: Connection, projectId: string): Promise<EventSpan> {
  const [row] = await rowsOf(
    connection,
    `SELECT count(*) AS events, epoch_ms(min(ts)) AS first_ms, epoch_ms(max(ts)) AS last_ms
       FROM events WHERE project_id = $project`,
    { project: projectId },
    EventSpanRow,
  );
  return eventSpanOf(row);
}
