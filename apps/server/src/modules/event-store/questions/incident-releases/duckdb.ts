import { type Connection, FROM, type Params, rowsOf, TO } from '../../duckdb/sql.ts';
import {
  type IncidentReleases,
  type IncidentReleasesOptions,
  IncidentReleasesRow,
  releasesById,
} from './question.ts';

/** From the project's error events that carried a release (docs/releases.md). */
export async function incidentReleases(
  connection: Connection,
  projectId: string,
  options: IncidentReleasesOptions = {},
): Promise<Map<string, IncidentReleases>> {
  const params: Params = { project: projectId };
  if (options.incidentId) params.incident = options.incidentId;
  if (options.release) {
    params.release = options.release.name;
    params.from = options.release.range.fromMs;
    params.to = options.release.range.toMs;
  }
  const inRelease = options.release
    ? `bool_or(release = $release AND ts >= ${FROM} AND ts < ${TO})`
    : 'false';
  const rows = await rowsOf(
    connection,
    `SELECT incident_id,
            arg_min(release, (ts, id)) AS first_release,
            arg_max(release, (ts, id)) AS last_release,
            ${inRelease} AS in_release
       FROM events
      WHERE project_id = $project AND type = 'error' AND incident_id IS NOT NULL AND release IS NOT NULL
        ${options.incidentId ? 'AND incident_id = $incident' : ''}
      GROUP BY incident_id`,
    params,
    IncidentReleasesRow,
  );
  return releasesById(rows);
}
