import { z } from 'zod';
import type { EventSpan } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { EVENTS, ms } from '../../clickhouse/sql.ts';

const SpanRow = z.object({
  events: z.coerce.number(),
  first_ms: z.coerce.number(),
  last_ms: z.coerce.number(),
});

/** The project's first and last event times: what "all time" means for an open range. */
export async function eventSpan(clickhouse: ClickHouse, projectId: string): Promise<EventSpan> {
  const [row] = await clickhouse.rows(
    `SELECT count() AS events, ${ms('min(ts)')} AS first_ms, ${ms('max(ts)')} AS last_ms
       FROM ${EVENTS} WHERE project_id = {project:String}`,
    { project: projectId },
    SpanRow,
  );
  if (!row || row.events === 0) return null;
  return { firstMs: row.first_ms, lastMs: row.last_ms };
}
