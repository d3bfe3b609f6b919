import type { AlertWindow } from '../../alert-questions.ts';
import { IN_WINDOW_MS, windowsSql } from '../../clickhouse/alert-windows.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { INCIDENT_SOURCES, sqlList } from '../../domain.ts';
import { type AlertIncidentOccurrences, AlertIncidentOccurrencesRow, occurrencesOf } from './question.ts';

/**
 * The occurrences from `events`, counted by distinct id rather than read with FINAL (a copy loaded twice
 * is one occurrence; the distinct count costs less than merging every part); first seen and name from
 * `incident_lives` (ADR 037).
 */
export async function alertIncidentOccurrences(
  clickhouse: ClickHouse,
  windows: readonly AlertWindow[],
): Promise<AlertIncidentOccurrences[]> {
  if (windows.length === 0) return [];
  const { ctes, params, projectIds, loMs, hiMs } = windowsSql(windows);
  const rows = await clickhouse.rows(
    `WITH ${ctes},
     occurrences AS (
       SELECT w.w AS o_window, toInt64(floor((e.ts_ms - w.from_ms) / w.bucket_ms)) AS o_bucket,
              e.e_project AS o_project, e.e_incident AS o_incident,
              uniqExact(e.e_id) AS o_occurrences, max(e.ts_ms) AS o_last_ms
         FROM (SELECT project_id AS e_project, assumeNotNull(incident_id) AS e_incident,
                      toUnixTimestamp64Milli(ts) AS ts_ms, id AS e_id
                 FROM events
                WHERE project_id IN {projects:Array(String)}
                  AND type = 'error' AND incident_id IS NOT NULL
                  AND ifNull(error_source IN ${sqlList(INCIDENT_SOURCES)}, 0)
                  AND ts >= fromUnixTimestamp64Milli(toInt64(${loMs}), 'UTC')
                  AND ts < fromUnixTimestamp64Milli(toInt64(${hiMs}), 'UTC')) AS e
        INNER JOIN windows AS w ON w.project_id = e.e_project
        WHERE ${IN_WINDOW_MS('w', 'e.ts_ms')}
        GROUP BY o_window, o_bucket, o_project, o_incident
     ),
     lives AS (
       SELECT project_id AS l_project, incident_id AS l_incident,
              toUnixTimestamp64Milli(minMerge(first_seen_state)) AS l_first_seen,
              argMaxMerge(title_state) AS l_title
         FROM incident_lives
        WHERE project_id IN {projects:Array(String)}
        GROUP BY project_id, incident_id
     )
     SELECT o.o_window AS window_index, o.o_bucket AS bucket, o.o_incident AS incident_id, l.l_title AS title,
            o.o_occurrences AS occurrences, o.o_last_ms AS last_ms,
            if(l.l_first_seen = 0, o.o_last_ms, l.l_first_seen) AS first_seen_ms
       FROM occurrences AS o
       LEFT JOIN lives AS l ON l.l_project = o.o_project AND l.l_incident = o.o_incident
     SETTINGS join_use_nulls = 0`,
    { ...params, projects: projectIds },
    AlertIncidentOccurrencesRow,
  );
  return rows.map(occurrencesOf);
}
