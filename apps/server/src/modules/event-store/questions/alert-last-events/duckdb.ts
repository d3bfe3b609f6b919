import type { AlertWindow } from '../../alert-questions.ts';
import { IN_WINDOW, windowBucketOf, windowsSql } from '../../duckdb/alert-windows.ts';
import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import { type AlertLastEvent, AlertLastEventRow, lastEventOf } from './question.ts';

/** From `events`, clustered by (project, time): each window reads its project's span only. */
export async function alertLastEvents(
  connection: Connection,
  windows: readonly AlertWindow[],
): Promise<AlertLastEvent[]> {
  if (windows.length === 0) return [];
  const { ctes, params, loMs, hiMs } = windowsSql(windows);
  const rows = await rowsOf(
    connection,
    `WITH ${ctes}
     SELECT w.w AS window_index, ${windowBucketOf('w', 'e.ts')} AS bucket, epoch_ms(max(e.ts)) AS last_ms
       FROM events e JOIN windows w ON w.project_id = e.project_id
      WHERE e.project_id IN (SELECT project_id FROM alert_projects)
        AND e.ts >= make_timestamp(${loMs * 1000}) AND e.ts < make_timestamp(${hiMs * 1000})
        AND ${IN_WINDOW('w', 'e.ts')}
      GROUP BY window_index, bucket`,
    params,
    AlertLastEventRow,
  );
  return rows.map(lastEventOf);
}
