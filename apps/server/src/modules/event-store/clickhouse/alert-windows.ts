import type { AlertWindow } from '../alert-questions.ts';
import { boundsOf, checkedWindows } from '../alert-questions.ts';
import type { Params } from './client.ts';
import { ms } from './sql.ts';

/**
 * The alert questions' windows as SQL: `windows(w, project_id, from_ms, to_ms, bucket_ms)` (w: the
 * window's index) and `alert_projects(project_id, lo_ms, hi_ms)` (each project's span of windows), the
 * same as DuckDB's (duckdb/alert-windows.ts). Project ids travel as parameters; the numbers, checked
 * integers, are written into the text.
 */
export function windowsSql(windows: readonly AlertWindow[]): {
  ctes: string;
  params: Params;
  projectIds: string[];
  loMs: number;
  hiMs: number;
} {
  const params: Params = {};
  const names = new Map<string, string>();
  const rows = checkedWindows(windows).map((w, index) => {
    let name = names.get(w.projectId);
    if (!name) {
      name = `p${names.size}`;
      names.set(w.projectId, name);
      params[name] = w.projectId;
    }
    return `(toUInt32(${index}), {${name}:String}, toInt64(${w.fromMs}), toInt64(${w.toMs}), toInt64(${w.bucketMs}))`;
  });
  const ctes = `windows AS (
  SELECT t.1 AS w, t.2 AS project_id, t.3 AS from_ms, t.4 AS to_ms, t.5 AS bucket_ms
    FROM (SELECT arrayJoin([${rows.join(', ')}]) AS t)
),
alert_projects AS (
  SELECT project_id, min(from_ms) AS lo_ms, max(to_ms) AS hi_ms FROM windows GROUP BY project_id
)`;
  return { ctes, params, projectIds: [...names.keys()], ...boundsOf(windows) };
}

/** Index of the bucket of window `w` a time falls in. */
export const windowBucketOf = (w: string, time: string) =>
  `toInt64(floor((${ms(time)} - ${w}.from_ms) / ${w}.bucket_ms))`;

/** A time (epoch ms expression) within window `w`. */
export const IN_WINDOW_MS = (w: string, timeMs: string) =>
  `${timeMs} >= ${w}.from_ms AND ${timeMs} < ${w}.to_ms`;
