import type { DuckDBConnection } from '@duckdb/node-api';
import type { AcquisitionFilterOptions } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { MAX_FILTER_OPTIONS } from '../../acquisition-questions.ts';
import { parseValueSets, SESSION_VALUE_SETS } from '../derived-tables.ts';
import { type UserColumn, withSessionRows } from '../session-rows.ts';
import { rowsOf } from '../sql.ts';

/** Column → result key; one pass over the sessions and one UNPIVOT read all eight lists. */
const OPTION_COLUMNS: Record<string, keyof AcquisitionFilterOptions> = {
  country: 'countries',
  utm_term: 'terms',
  utm_source: 'sources',
  utm_medium: 'mediums',
  utm_campaign: 'campaigns',
  utm_content: 'contents',
  browser: 'browsers',
  wallet_provider: 'walletProviders',
};

/**
 * The values the filter bar offers: every value seen in the range, with its distinct users. Read from the
 * per-session value sets: the distinct (user, value sets) pairs, as one string per session
 * (`value_sets`), then each set unnested side by side (shorter sets are padded with NULLs, which UNPIVOT
 * leaves out), so every (user, column, value) the events in the range carry is in some row. Users are told
 * apart by their key, a number, unless two share one (session-rows.ts).
 */
export async function filterOptions(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
): Promise<AcquisitionFilterOptions> {
  const columns = Object.keys(SESSION_VALUE_SETS);
  const sql = (sessionRows: string, user: UserColumn) => `
    WITH ${sessionRows},
    user_sets AS (
      SELECT user_id, ${parseValueSets('value_sets')} AS sets
        FROM (SELECT DISTINCT ${user} AS user_id, value_sets FROM session_rows)
    ),
    scoped AS (
      SELECT user_id, ${columns.map((column, index) => `unnest(sets[${index + 1}]) AS ${column}`).join(', ')}
        FROM user_sets
    ),
    options AS (
      -- UNPIVOT leaves NULLs out: one row per (user, column, value) present.
      SELECT name, value, count(DISTINCT user_id) AS users
        FROM (UNPIVOT scoped ON ${columns.join(', ')} INTO NAME name VALUE value)
       WHERE trim(value) <> ''
       GROUP BY name, value
    )
    SELECT name, value, users::DOUBLE AS users
      FROM options
     QUALIFY row_number() OVER (PARTITION BY name ORDER BY users DESC, value) <= ${MAX_FILTER_OPTIONS}
     ORDER BY name, users DESC, value`;
  const rows = await withSessionRows(
    connection,
    projectId,
    range,
    ['value_sets'],
    (sessionRows, params, user) => rowsOf(connection, sql(sessionRows, user), params),
  );
  const result = Object.fromEntries(
    Object.values(OPTION_COLUMNS).map((key) => [key, []]),
  ) as unknown as AcquisitionFilterOptions;
  for (const row of rows) {
    const key = OPTION_COLUMNS[String(row.name)];
    if (key) result[key].push({ value: String(row.value), users: Number(row.users) });
  }
  return result;
}
