import { type Connection, type Params, rowsOf } from '../../duckdb/sql.ts';
import { IncidentIdRow, type ResolvedInNextRelease } from './question.ts';

/** Over the project's events: each release's first receipt, then the asked incidents' later occurrences. */
export async function newReleaseOccurrences(
  connection: Connection,
  projectId: string,
  resolved: readonly ResolvedInNextRelease[],
): Promise<Set<string>> {
  if (resolved.length === 0) return new Set();
  const params: Params = { project: projectId };
  const asked = resolved.map(({ incidentId, sinceMs }, index) => {
    params[`incident_${index}`] = incidentId;
    params[`since_${index}`] = sinceMs;
    return `($incident_${index}, make_timestamp($since_${index}::BIGINT * 1000))`;
  });
  const rows = await rowsOf(
    connection,
    `WITH asked(incident_id, since) AS (VALUES ${asked.join(', ')}),
     firsts AS (
       SELECT release, min(received_at) AS first_at
         FROM events
        WHERE project_id = $project AND release IS NOT NULL
        GROUP BY release
     )
     SELECT DISTINCT e.incident_id
       FROM events e
       JOIN asked a ON a.incident_id = e.incident_id
       JOIN firsts f ON f.release = e.release
      WHERE e.project_id = $project AND e.type = 'error'
        AND e.received_at > a.since AND f.first_at > a.since`,
    params,
    IncidentIdRow,
  );
  return new Set(rows.map((row) => row.incident_id));
}
