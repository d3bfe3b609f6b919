import type { DerivedRowsChange } from './aligned-tables.ts';
import { type ClickHouse, deleteRows, type Params } from './client.ts';

/** The UTC day of an event. */
const EVENT_DAY = "toDate(ts, 'UTC')";

/**
 * The (project, UTC day, user) of every event: the denominator of an incident's reach reads a project's
 * users per day over the incident's whole life, which would otherwise be every event of those days. The
 * view keeps one row per key and inserted block; merges and distinct counts do the rest.
 */
export const CREATE_USER_DAYS = `CREATE TABLE IF NOT EXISTS user_days (
  project_id String,
  day Date,
  user_id String
) ENGINE = ReplacingMergeTree
ORDER BY (project_id, day, user_id)`;

const USER_DAYS_OF_EVENTS = `SELECT DISTINCT project_id, ${EVENT_DAY} AS day, user_id FROM events`;

export const CREATE_USER_DAYS_VIEW = `CREATE MATERIALIZED VIEW IF NOT EXISTS user_days_of_events TO user_days AS
${USER_DAYS_OF_EVENTS}`;

export const USER_DAYS_STATEMENTS = [
  CREATE_USER_DAYS,
  CREATE_USER_DAYS_VIEW,
  `INSERT INTO user_days ${USER_DAYS_OF_EVENTS}`,
];

/** `user_days` in line with the events that stay after a delete (derived-tables.ts, deleteDerivedRows). */
export async function alignUserDays(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  if (change.kind === 'all') {
    await deleteRows(clickhouse, 'user_days', change.where, params);
    return;
  }
  const project = 'project_id = {project:String}';
  if (change.kind === 'days') {
    const day = `toDate(fromUnixTimestamp64Milli({${change.beforeParam}:Int64}, 'UTC'), 'UTC')`;
    await deleteRows(clickhouse, 'user_days', `${project} AND day <= ${day}`, params);
    await clickhouse.command(
      `INSERT INTO user_days ${USER_DAYS_OF_EVENTS} WHERE ${project} AND ${EVENT_DAY} = ${day}`,
      params,
    );
    return;
  }
  if (change.userIds.length === 0) return;
  const users = { ...params, users: change.userIds };
  const ofUsers = `${project} AND has({users:Array(String)}, user_id)`;
  await deleteRows(clickhouse, 'user_days', ofUsers, users);
  await clickhouse.command(`INSERT INTO user_days ${USER_DAYS_OF_EVENTS} WHERE ${ofUsers}`, users);
}
