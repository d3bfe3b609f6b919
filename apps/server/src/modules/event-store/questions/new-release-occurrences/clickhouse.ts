import type { ClickHouse } from '../../clickhouse/client.ts';
import { ERROR_SUBSET } from '../../clickhouse/derived-tables.ts';
import { EVENTS } from '../../clickhouse/sql.ts';
import { IncidentIdRow, type ResolvedInNextRelease } from './question.ts';

/** Over the project's events: each release's first receipt, then the asked incidents' later occurrences. */
export async function newReleaseOccurrences(
  clickhouse: ClickHouse,
  projectId: string,
  resolved: readonly ResolvedInNextRelease[],
): Promise<Set<string>> {
  if (resolved.length === 0) return new Set();
  const rows = await clickhouse.rows(
    `WITH asked AS (
       SELECT tupleElement(pair, 1) AS asked_id,
              fromUnixTimestamp64Milli(toInt64(tupleElement(pair, 2)), 'UTC') AS since
         FROM (SELECT arrayJoin(arrayZip({ids:Array(String)}, {since:Array(String)})) AS pair)
     ),
     firsts AS (
       SELECT release AS first_release, min(received_at) AS first_at
         FROM ${EVENTS}
        WHERE project_id = {project:String} AND release IS NOT NULL
        GROUP BY release
     )
     SELECT DISTINCT assumeNotNull(e.incident_id) AS incident_id
       FROM ${ERROR_SUBSET.table} AS e FINAL
       INNER JOIN asked AS a ON a.asked_id = e.incident_id
       INNER JOIN firsts AS f ON f.first_release = e.release
      WHERE e.project_id = {project:String}
        AND e.received_at > a.since AND f.first_at > a.since`,
    {
      project: projectId,
      ids: resolved.map((entry) => entry.incidentId),
      since: resolved.map((entry) => String(entry.sinceMs)),
    },
    IncidentIdRow,
  );
  return new Set(rows.map((row) => row.incident_id));
}
