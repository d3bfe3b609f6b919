import type { DerivedRowsChange } from './aligned-tables.ts';
import { type ClickHouse, deleteRows, type Params } from './client.ts';
import { COPY_SPILL_BYTES } from './copy-spill.ts';
import { dayOfParam, eventsOnDayOf } from './session-days.ts';

/**
 * `user_quarters`: one row per (project, UTC quarter-hour, user) with an event (ADR 095), as
 * `wallet_quarters` is for wallets (ADR 087): the events of one quarter-hour lie in one local day of any
 * zone, so a zoned project's user-days (the overview's Average TX/User/Day) are counted from these rows,
 * exactly, where they read the events of both periods. A ReplacingMergeTree fed by a materialized view on
 * `events`: a duplicate row folds away on merge, and the readers count distinct days, so one not yet
 * folded changes nothing. The same shape as DuckDB's `user_quarters` (ADR 090).
 */

/** The UTC quarter-hour an event falls in. */
const EVENT_QUARTER = "toDateTime64(toStartOfInterval(toDateTime(ts, 'UTC'), INTERVAL 15 MINUTE), 3, 'UTC')";

/**
 * `user_hash`: the 128-bit SipHash of the user id that `uniqExact` of the text computes per row, stored
 * (MATERIALIZED: no insert names it, `SELECT *` leaves it out), so that the readers count the same
 * distinct users from a number: half the CPU of hashing the text on every read (ADR 095).
 */
export const idHash = (text: string) => `reinterpretAsUInt128(sipHash128(${text}))`;

export const CREATE_USER_QUARTERS = `CREATE TABLE IF NOT EXISTS user_quarters (
  project_id String,
  quarter DateTime64(3, 'UTC'),
  user_id String,
  user_hash UInt128 MATERIALIZED ${idHash('user_id')}
) ENGINE = ReplacingMergeTree
ORDER BY (project_id, quarter, user_id)`;

/** The rows of `user_quarters` for the events a SELECT reads (`where`: conditions on them). */
export const userQuartersOfEvents = (where = '') =>
  `SELECT DISTINCT project_id, ${EVENT_QUARTER} AS quarter, user_id
    FROM events${where ? ` WHERE ${where}` : ''}`;

/** The table, the view that feeds it, then the rows already stored (a repeat only adds duplicates). */
export const USER_QUARTERS_STATEMENTS = [
  CREATE_USER_QUARTERS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS user_quarters_of_events TO user_quarters AS
${userQuartersOfEvents()}`,
  `INSERT INTO user_quarters ${userQuartersOfEvents()}
   ORDER BY project_id, quarter, user_id
SETTINGS max_bytes_before_external_group_by = ${COPY_SPILL_BYTES},
         max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];

/**
 * `user_quarters` in line with the events that stay after a delete, as `user_days` is (user-days.ts): a
 * project's rows go with it; retention deletes the quarter-hours of the days before its cut and rebuilds
 * those of its day; a user's delete rebuilds that user's rows.
 */
export async function alignUserQuarters(clickhouse: ClickHouse, params: Params, change: DerivedRowsChange) {
  if (change.kind === 'all') {
    await deleteRows(clickhouse, 'user_quarters', change.where, params);
    return;
  }
  if (change.kind === 'days') {
    const day = dayOfParam(change.beforeParam);
    await deleteRows(
      clickhouse,
      'user_quarters',
      `project_id = {project:String} AND toDate(quarter, 'UTC') <= ${day}`,
      params,
    );
    await clickhouse.command(
      `INSERT INTO user_quarters ${userQuartersOfEvents(eventsOnDayOf(change.beforeParam))}`,
      params,
    );
    return;
  }
  if (change.userIds.length === 0) return;
  const users = { ...params, users: change.userIds };
  const ofUsers = 'project_id = {project:String} AND has({users:Array(String)}, user_id)';
  await deleteRows(clickhouse, 'user_quarters', ofUsers, users);
  await clickhouse.command(`INSERT INTO user_quarters ${userQuartersOfEvents(ofUsers)}`, users);
}
