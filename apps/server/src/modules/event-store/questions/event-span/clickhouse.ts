import type { EventSpan } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { EVENTS, ms } from '../../clickhouse/sql.ts';
import { EventSpanRow, eventSpanOf } from './question.ts';

export async function eventSpan(clickhouse: ClickHouse, projectId: string): Promise<EventSpan> {
  const [row] = await clickhouse.rows(
    `SELECT count() AS events, ${ms('min(ts)')} AS first_ms, ${ms('max(ts)')} AS last_ms
       FROM ${EVENTS} WHERE project_id = {project:String}`,
    { project: projectId },
    EventSpanRow,
  );
  return eventSpanOf(row);
}
