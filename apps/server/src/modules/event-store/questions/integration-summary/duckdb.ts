import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import { type IntegrationSummary, integrationSummaryOf, LatestRow, OriginRow } from './question.ts';

export async function integrationSummary(
  connection: Connection,
  projectId: string,
  since: Date,
): Promise<IntegrationSummary> {
  const perOrigin = await rowsOf(
    connection,
    `SELECT origin, count(*)::DOUBLE AS events, epoch_ms(max(received_at))::DOUBLE AS last
       FROM events
      WHERE project_id = $project AND received_at >= make_timestamp($since::BIGINT * 1000)
      GROUP BY origin
      ORDER BY last DESC, origin`,
    { project: projectId, since: BigInt(since.getTime()) },
    OriginRow,
  );
  const [latest] = await rowsOf(
    connection,
    `SELECT epoch_ms(received_at)::DOUBLE AS received, origin, type
       FROM events WHERE project_id = $project ORDER BY received_at DESC LIMIT 1`,
    { project: projectId },
    LatestRow,
  );
  return integrationSummaryOf(perOrigin, latest);
}
