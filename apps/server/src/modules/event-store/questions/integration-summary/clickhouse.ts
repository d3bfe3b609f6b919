import type { ClickHouse } from '../../clickhouse/client.ts';
import { EVENTS, ms } from '../../clickhouse/sql.ts';
import { type IntegrationSummary, integrationSummaryOf, LatestRow, OriginRow } from './question.ts';

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
  return integrationSummaryOf(perOrigin, latest[0]);
}
