import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { ERROR_EVENTS } from '../../clickhouse/derived-tables.ts';
import { FROM, TO } from '../../clickhouse/sql.ts';
import {
  type IncidentReleases,
  type IncidentReleasesOptions,
  IncidentReleasesRow,
  releasesById,
} from './question.ts';

/** From the project's error events that carried a release (docs/releases.md). */
export async function incidentReleases(
  clickhouse: ClickHouse,
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
    ? `max(release = {release:String} AND ts >= ${FROM} AND ts < ${TO})`
    : '0';
  const rows = await clickhouse.rows(
    `SELECT incident_id,
            argMin(release, (ts, id)) AS first_release,
            argMax(release, (ts, id)) AS last_release,
            toUInt8(${inRelease}) AS in_release
       FROM ${ERROR_EVENTS}
      WHERE project_id = {project:String} AND incident_id IS NOT NULL AND release IS NOT NULL
        ${options.incidentId ? 'AND incident_id = {incident:String}' : ''}
      GROUP BY incident_id`,
    params,
    IncidentReleasesRow,
  );
  return releasesById(rows);
}
