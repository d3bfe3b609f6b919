import type { AlertWindow } from '../alert-questions.ts';
import { boundsOf, checkedWindows } from '../alert-questions.ts';
import type { Params } from './sql.ts';

/**
 * The alert questions' windows as SQL: `windows(w, project_id, from_ms, to_ms, bucket_ms)` (w: the
 * window's index) and `alert_projects(project_id, lo_ms, hi_ms)` (each project's span of windows). Project
 * ids travel as parameters; the numbers, checked integers, are written into the text.
 */
export function windowsSql(windows: readonly AlertWindow[]): {
  ctes: string;
  params: Params;
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
    return `(${index}, $${name}::VARCHAR, ${w.fromMs}::BIGINT, ${w.toMs}::BIGINT, ${w.bucketMs}::BIGINT)`;
  });
  const ctes = `windows AS (
  SELECT * FROM (VALUES ${rows.join(', ')}) AS v(w, project_id, from_ms, to_ms, bucket_ms)
),
alert_projects AS (
  SELECT project_id, min(from_ms) AS lo_ms, max(to_ms) AS hi_ms FROM windows GROUP BY project_id
)`;
  return { ctes, params, ...boundsOf(windows) };
}

/** Index of the bucket of window `w` a time falls in. */
export const windowBucketOf = (w: string, time: string) =>
  `floor((epoch_ms(${time}) - ${w}.from_ms) / ${w}.bucket_ms)::BIGINT`;

/** A time within window `w`. */
export const IN_WINDOW = (w: string, time: string) =>
  `${time} >= make_timestamp(${w}.from_ms * 1000) AND ${time} < make_timestamp(${w}.to_ms * 1000)`;
