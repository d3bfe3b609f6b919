import type { AlertWindow } from '../../alert-questions.ts';
import { INCIDENT_SOURCES, sqlList } from '../../domain.ts';
import { IN_WINDOW, windowBucketOf, windowsSql } from '../../duckdb/alert-windows.ts';
import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import { type AlertIncidentOccurrences, AlertIncidentOccurrencesRow, occurrencesOf } from './question.ts';

/** The occurrences from `events`; first seen and name from the derived `incident_spans` (ADR 035). */
export async function alertIncidentOccurrences(
  connection: Connection,
  windows: readonly AlertWindow[],
): Promise<AlertIncidentOccurrences[]> {
  if (windows.length === 0) return [];
  const { ctes, params, loMs, hiMs } = windowsSql(windows);
  const rows = await rowsOf(
    connection,
    `WITH ${ctes},
     occurrences AS (
       SELECT w.w AS window_index, ${windowBucketOf('w', 'e.ts')} AS bucket, e.project_id, e.incident_id,
              count(*)::DOUBLE AS occurrences, epoch_ms(max(e.ts)) AS last_ms
         FROM events e JOIN windows w ON w.project_id = e.project_id
        WHERE e.project_id IN (SELECT project_id FROM alert_projects)
          AND e.type = 'error' AND e.incident_id IS NOT NULL AND e.error_source IN ${sqlList(INCIDENT_SOURCES)}
          AND e.ts >= make_timestamp(${loMs * 1000}) AND e.ts < make_timestamp(${hiMs * 1000})
          AND ${IN_WINDOW('w', 'e.ts')}
        GROUP BY window_index, bucket, e.project_id, e.incident_id
     )
     SELECT o.window_index, o.bucket, o.incident_id, l.title, o.occurrences, o.last_ms,
            epoch_ms(coalesce(l.first_ts, make_timestamp(o.last_ms * 1000))) AS first_seen_ms
       FROM occurrences o
       LEFT JOIN incident_spans l ON l.project_id = o.project_id AND l.incident_id = o.incident_id`,
    params,
    AlertIncidentOccurrencesRow,
  );
  return rows.map(occurrencesOf);
}
