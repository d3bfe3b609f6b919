import type { AcquisitionFilterOptions } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { MAX_FILTER_OPTIONS } from '../../domain.ts';
import { type UserColumn, withSessionRows } from '../../duckdb/session-rows.ts';
import { parseValueSets, SESSION_VALUE_SETS } from '../../duckdb/sessions.ts';
import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import { filterOptionsOf, OptionRow } from './question.ts';

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
 * per-session value sets (`value_sets`, one string per session): the distinct (user, value sets) pairs,
 * then each distinct string parsed once and its sets unnested side by side (shorter sets are padded with
 * NULLs, which UNPIVOT leaves out), so every (column, value) the events in the range carry is in some row.
 * A value's users are those of the strings that hold it: a user with one string in the range is counted by
 * that string's count, so only users with several strings need a distinct count (ADR 040: most users keep
 * one for a month, and the distinct count over every (user, value) was most of the question's time).
 * Users are told apart by their key, a number, unless two share one (session-rows.ts).
 */
export async function filterOptions(
  connection: Connection,
  projectId: string,
  range: TimeRange,
): Promise<AcquisitionFilterOptions> {
  const columns = Object.keys(SESSION_VALUE_SETS);
  const sql = (sessionRows: string, user: UserColumn) => `
    WITH ${sessionRows},
    user_sets AS (
      SELECT DISTINCT ${user} AS user_id, value_sets FROM session_rows
    ),
    per_user AS (
      SELECT user_id, count(*) = 1 AS has_one FROM user_sets GROUP BY user_id
    ),
    -- Per distinct string: how many users have it alone, and the users who have others too.
    set_users AS (
      SELECT value_sets, count(*) FILTER (WHERE has_one) AS single_users,
             coalesce(list(user_id) FILTER (WHERE NOT has_one), []) AS shared_users
        FROM user_sets JOIN per_user USING (user_id)
       GROUP BY value_sets
    ),
    scoped AS (
      SELECT single_users, shared_users,
             ${columns.map((column, index) => `unnest(sets[${index + 1}]) AS ${column}`).join(', ')}
        FROM (SELECT *, ${parseValueSets('value_sets')} AS sets FROM set_users)
    ),
    options AS (
      -- UNPIVOT leaves NULLs out: one row per (string, column, value) present.
      SELECT name, value, sum(single_users) + len(list_distinct(flatten(list(shared_users)))) AS users
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
    (sessionRows, params, user) => rowsOf(connection, sql(sessionRows, user), params, OptionRow),
    { byUserKey: true },
  );
  return filterOptionsOf(rows, OPTION_COLUMNS);
}
