import type { DuckDBConnection } from '@duckdb/node-api';
import type { IntegrationSummary } from '../../event-store.ts';

/** Events per origin host since `since`, and the project's latest event of all time. */
export async function integrationSummary(
  connection: DuckDBConnection,
  projectId: string,
  since: Date,
): Promise<IntegrationSummary> {
  const perOrigin = await connection.runAndReadAll(
    `SELECT origin, count(*)::DOUBLE AS events, epoch_ms(max(received_at))::DOUBLE AS last
       FROM events
      WHERE project_id = $1 AND received_at >= make_timestamp($2::BIGINT * 1000)
      GROUP BY origin
      ORDER BY last DESC, origin`,
    [projectId, since.getTime()],
  );
  const latest = await connection.runAndReadAll(
    `SELECT epoch_ms(received_at)::DOUBLE AS received, origin, type
       FROM events WHERE project_id = $1 ORDER BY received_at DESC LIMIT 1`,
    [projectId],
  );
  const origins = perOrigin.getRowObjectsJS().map((row) => ({
    origin: String(row.origin),
    events: Number(row.events),
    lastReceivedAt: new Date(Number(row.last)),
  }));
  const last = latest.getRowObjectsJS()[0];
  return {
    eventsSince: origins.reduce((sum, origin) => sum + origin.events, 0),
    lastEvent: last
      ? { receivedAt: new Date(Number(last.received)), origin: String(last.origin), type: String(last.type) }
      : null,
    origins,
  };
}
