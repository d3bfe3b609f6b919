/**
 * `user_lives`: one row per (project, user) with the first and the last UTC day on which the user had any
 * event (docs/decisions/032-clickhouse-user-lives.md), the table DuckDB keeps for an incident's reach (ADR
 * 029). An AggregatingMergeTree of a minimum and a maximum, fed by a materialized view on `events`: an
 * event stored twice, a user's events in several loads or out of order fold to the same row.
 */

export const CREATE_USER_LIVES = `CREATE TABLE IF NOT EXISTS user_lives (
  project_id String,
  user_id String,
  first_day SimpleAggregateFunction(min, Date),
  last_day SimpleAggregateFunction(max, Date)
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, user_id)`;

const USER_LIVES_OF_EVENTS = `SELECT project_id, user_id, min(toDate(ts, 'UTC')) AS first_day, max(toDate(ts, 'UTC')) AS last_day
  FROM events
 GROUP BY project_id, user_id`;

/**
 * The lives from `user_days` (ADR 026, one row per project, day and user, kept in line by every delete):
 * the upgrade's copy and the rebuilds after deletes read these rows rather than the events (a tenth as
 * many for the bench's data), sorted by the key so that a copy lands as parts FINAL need not merge.
 */
export const userLivesOfUserDays = (where = '') =>
  `SELECT project_id, user_id, min(day) AS first_day, max(day) AS last_day
  FROM user_days${where ? `\n WHERE ${where}` : ''}
 GROUP BY project_id, user_id
 ORDER BY project_id, user_id`;

/**
 * The table, the view that feeds it, then the lives of the users already stored. `user_days` holds every
 * stored event's (day, user): an event loaded while the schema migrates reaches the lives through the
 * view, the copy, or both, which folds to the same row.
 */
export const USER_LIVES_STATEMENTS = [
  CREATE_USER_LIVES,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS user_lives_of_events TO user_lives AS
${USER_LIVES_OF_EVENTS}`,
  `INSERT INTO user_lives ${userLivesOfUserDays()}`,
];
