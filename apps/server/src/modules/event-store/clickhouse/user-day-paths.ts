import type { DerivedRowsChange } from './aligned-tables.ts';
import { type ClickHouse, deleteRows, type Params } from './client.ts';
import { COPY_SPILL_BYTES } from './copy-spill.ts';
import { dayOfParam, eventsOnDayOf } from './session-days.ts';

/**
 * `user_day_paths`: one row per (project, UTC day, user, page path) with a page view (ADR 112), for the
 * path goals' conversions: a range's whole days read these few narrow rows, each path once per user and
 * day, where the events of the range were read whole to find their page views (the type and path of
 * every event). The path is dictionary-encoded (LowCardinality: `match` runs once per distinct path of a
 * block, not once per row) and kept nullable: a page view without a path matches no goal, not the empty
 * text. `user_key` is the events' (`cityHash64(user_id)`, ADR 093). A ReplacingMergeTree fed by a
 * materialized view on `events`, as `user_days` is: a duplicate row folds away on merge, and the readers
 * OR flags per user, which a row not yet folded does not change.
 */
export const CREATE_USER_DAY_PATHS = `CREATE TABLE IF NOT EXISTS user_day_paths (
  project_id String,
  day Date,
  user_key UInt64,
  user_id String,
  path LowCardinality(Nullable(String))
) ENGINE = ReplacingMergeTree
ORDER BY (project_id, day, user_key, user_id, path)
SETTINGS allow_nullable_key = 1`;

/** The rows of `user_day_paths` for the events a SELECT reads (`where`: conditions on them). */
export const userDayPathsOfEvents = (where = '') =>
  `SELECT DISTINCT project_id, toDate(ts, 'UTC') AS day, cityHash64(user_id) AS user_key, user_id, path
    FROM events WHERE type = 'page_view'${where ? ` AND ${where}` : ''}`;

/**
 * The table, the view that feeds it, then the rows already stored (an event loaded in between reaches it
 * twice and folds away), merged into one part as version 23 left every other table (ADR 097).
 */
export const USER_DAY_PATHS_STATEMENTS = [
  CREATE_USER_DAY_PATHS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS user_day_paths_of_events TO user_day_paths AS
${userDayPathsOfEvents()}`,
  `INSERT INTO user_day_paths ${userDayPathsOfEvents()}
   ORDER BY project_id, day, user_key, user_id, path
SETTINGS max_bytes_before_external_group_by = ${COPY_SPILL_BYTES},
         max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];

/** Version 27's copy merged into one part (ADR 097). */
export async function mergeUserDayPaths(clickhouse: ClickHouse): Promise<void> {
  await clickhouse.command('OPTIMIZE TABLE user_day_paths FINAL');
}

/**
 * `user_day_paths` in line with the events that stay after a delete, as `user_days` is (user-days.ts): a
 * project's or a user's rows go with their events; retention deletes the days before its cut and rebuilds
 * its own day; a wallet's delete rebuilds the rows of the users seen with it.
 */
export async function alignUserDayPaths(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  if (change.kind === 'all') {
    await deleteRows(clickhouse, 'user_day_paths', change.where, params);
    return;
  }
  if (change.kind === 'days') {
    const day = dayOfParam(change.beforeParam);
    await deleteRows(clickhouse, 'user_day_paths', `project_id = {project:String} AND day <= ${day}`, params);
    await clickhouse.command(
      `INSERT INTO user_day_paths ${userDayPathsOfEvents(eventsOnDayOf(change.beforeParam))}`,
      params,
    );
    return;
  }
  if (change.userIds.length === 0) return;
  const users = { ...params, users: change.userIds };
  const ofUsers = 'project_id = {project:String} AND has({users:Array(String)}, user_id)';
  await deleteRows(clickhouse, 'user_day_paths', ofUsers, users);
  await clickhouse.command(`INSERT INTO user_day_paths ${userDayPathsOfEvents(ofUsers)}`, users);
}
