import type { AlertWindow } from '../../alert-questions.ts';
import { IN_WINDOW_MS, windowsSql } from '../../clickhouse/alert-windows.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { type AlertLastEvent, AlertLastEventRow, lastEventOf } from './question.ts';

/**
 * From `events`, sorted by (project, time): each project's span only. Without FINAL: a copy of an event
 * loaded twice does not change a maximum.
 */
export async function alertLastEvents(
  clickhouse: ClickHouse,
  windows: readonly AlertWindow[],
): Promise<AlertLastEvent[]> {
  if (windows.length === 0) return [];
  const { ctes, params, projectIds, loMs, hiMs } = windowsSql(windows);
  const rows = await clickhouse.rows(
    `WITH ${ctes}
     SELECT w.w AS window_index, toInt64(floor((e.ts_ms - w.from_ms) / w.bucket_ms)) AS bucket,
            max(e.ts_ms) AS last_ms
       FROM (SELECT project_id AS e_project, toUnixTimestamp64Milli(ts) AS ts_ms
               FROM events
              WHERE project_id IN {projects:Array(String)}
                AND ts >= fromUnixTimestamp64Milli(toInt64(${loMs}), 'UTC')
                AND ts < fromUnixTimestamp64Milli(toInt64(${hiMs}), 'UTC')) AS e
      INNER JOIN windows AS w ON w.project_id = e.e_project
      WHERE ${IN_WINDOW_MS('w', 'e.ts_ms')}
      GROUP BY window_index, bucket`,
    { ...params, projects: projectIds },
    AlertLastEventRow,
  );
  return rows.map(lastEventOf);
}
