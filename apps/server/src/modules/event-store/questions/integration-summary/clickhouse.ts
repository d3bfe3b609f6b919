import { z } from 'zod';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { EVENTS, ms } from '../../clickhouse/sql.ts';
import type { IntegrationSummary } from '../../event-store.ts';

const OriginRow = z.object({ origin: z.string(), events: z.coerce.number(), last: z.coerce.number() });
const LatestRow = z.object({ received: z.coerce.number(), origin: z.string(), type: z.string() });

/** Events per origin host since `since`, and the project's latest event of all time. */
export async function integrationSummary(
  clickhouse: ClickHouse,
  projectId: string,
  since: Date,
): Promise<IntegrationSummary> {
  const [perOrigin, latest] = await Promise.all([
    clickhouse.rows(
      `SELECT origin, count() AS events, ${ms('max(received_at)')} AS last
         FROM ${EVENTS}
        WHERE project_id = {project:String} AND received_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC')
        GROUP BY origin
        ORDER BY last DESC, origin`,
      { project: projectId, since: since.getTime() },
      OriginRow,
    ),
    clickhouse.rows(
      `SELECT ${ms('received_at')} AS received, origin, type
         FROM ${EVENTS} WHERE project_id = {project:String} ORDER BY received_at DESC LIMIT 1`,
      { project: projectId },
      LatestRow,
    ),
  ]);
  const origins = perOrigin.map((row) => ({
    origin: row.origin,
    events: row.events,
    lastReceivedAt: new Date(row.last),
  }));
  const last = latest[0];
  return {
    eventsSince: origins.reduce((sum, origin) => sum + origin.events, 0),
    lastEvent: last ? { receivedAt: new Date(last.received), origin: last.origin, type: last.type } : null,
    origins,
  };
}
