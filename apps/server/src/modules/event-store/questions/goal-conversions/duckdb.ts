import { type TimeRange, utcDayParts } from '../../../../reading/time-range.ts';
import {
  type Connection,
  IDENTITIES_CTE,
  IDENTITY,
  IN_RANGE,
  type Params,
  rangeParams,
  rowsOf,
} from '../../duckdb/sql.ts';
import type { GoalMatch } from '../../goal-questions.ts';
import { jsonPointerOf } from '../custom-event-breakdown/question.ts';
import { type GoalConversionCounts, GoalConversionsRow } from './question.ts';

/**
 * Whether an `events` row matches a goal, with the goal's text as parameters `$<prefix>_…` (never in the
 * SQL): a custom event of the name (and the property's value as text, as the breakdown reads it), or a
 * page view whose path the pattern's expression matches whole.
 */
export function goalCondition(goal: GoalMatch, prefix: string): { sql: string; params: Params } {
  if (goal.kind === 'path') {
    return {
      sql: `(type = 'page_view' AND coalesce(regexp_full_match(path, $${prefix}_re), false))`,
      params: { [`${prefix}_re`]: goal.pathRegex },
    };
  }
  if (goal.propertyKey === null || goal.propertyValue === null) {
    return {
      sql: `(type = 'custom' AND coalesce(event_name = $${prefix}_name, false))`,
      params: { [`${prefix}_name`]: goal.eventName },
    };
  }
  return {
    sql: `(type = 'custom' AND coalesce(event_name = $${prefix}_name
             AND json_extract_string(props, $${prefix}_pointer) = $${prefix}_value, false))`,
    params: {
      [`${prefix}_name`]: goal.eventName,
      [`${prefix}_pointer`]: jsonPointerOf(goal.propertyKey),
      [`${prefix}_value`]: goal.propertyValue,
    },
  };
}

/**
 * Users with any event in the range and, per goal, those with an event matching it (docs/goals.md#conversions),
 * reading only what each part needs (ADR 085): the range's SDK users from `user_days` for its whole UTC
 * days and from the events for the pieces of days at its ends; its page views reduced to their distinct
 * (SDK user, path) pairs, each distinct path tested once against the path goals' expressions; the range's
 * rows of the derived `custom_events` (ADR 072) for the event goals. Then the SDK users' flags are merged
 * per user (identify applied) and counted. Every part is a set (an event stored twice changes nothing).
 */
export async function goalConversions(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  goals: readonly GoalMatch[],
): Promise<GoalConversionCounts> {
  const conditions = goals.map((goal, index) => goalCondition(goal, `g${index}`));
  const pathGoals = goals.flatMap((goal, index) => (goal.kind === 'path' ? [index] : []));
  const eventGoals = goals.flatMap((goal, index) => (goal.kind === 'event' ? [index] : []));
  const condition = (index: number) => conditions[index]?.sql ?? 'false';
  const flag = (index: number) => `coalesce(g${index}, false)`;
  const parts = utcDayParts(range);
  const at = (name: string) => `make_timestamp($${name}::BIGINT * 1000)`;
  const ctes = [IDENTITIES_CTE];
  // The range's SDK users: its whole UTC days from `user_days` (ADR 005), the pieces of days at its ends
  // from the events, each piece a range of its own (an OR of two ranges, or an empty one, made DuckDB read
  // every event of the project: ADR 094). DISTINCT: each user once.
  const users: string[] = [];
  const partParams: Params = {};
  if (parts.days.fromMs < parts.days.toMs) {
    users.push(`SELECT user_id FROM user_days
        WHERE project_id = $project AND day >= ${at('days_from')}::DATE AND day < ${at('days_to')}::DATE`);
    partParams.days_from = BigInt(parts.days.fromMs);
    partParams.days_to = BigInt(parts.days.toMs);
  }
  for (const [name, piece] of [
    ['before', parts.before],
    ['after', parts.after],
  ] as const) {
    if (piece.fromMs >= piece.toMs) continue;
    users.push(`SELECT user_id FROM events
        WHERE project_id = $project AND ts >= ${at(`${name}_from`)} AND ts < ${at(`${name}_to`)}`);
    partParams[`${name}_from`] = BigInt(piece.fromMs);
    partParams[`${name}_to`] = BigInt(piece.toMs);
  }
  // An empty range has no users (the UNION needs one branch).
  if (users.length === 0) users.push('SELECT NULL::VARCHAR AS user_id WHERE false');
  ctes.push(`sdk_users AS (
       SELECT DISTINCT user_id FROM (
       ${users.join('\n       UNION ALL\n       ')})
     )`);
  const joins: string[] = [];
  if (pathGoals.length > 0) {
    // The range's page views alone, each tested against the path goals (regexp_full_match, cheap per
    // page view: ADR 094): a flag per goal and SDK user.
    ctes.push(`path_users AS (
       SELECT user_id, ${pathGoals.map((index) => `bool_or(${condition(index)}) AS g${index}`).join(', ')}
         FROM events
        WHERE ${IN_RANGE} AND type = 'page_view'
        GROUP BY user_id
     )`);
    joins.push('LEFT JOIN path_users ON path_users.user_id = e.user_id');
  }
  if (eventGoals.length > 0) {
    ctes.push(`event_users AS (
       SELECT user_id, ${eventGoals.map((index) => `bool_or(${condition(index)}) AS g${index}`).join(', ')}
         FROM custom_events
        WHERE ${IN_RANGE} AND type = 'custom'
        GROUP BY user_id
     )`);
    joins.push('LEFT JOIN event_users ON event_users.user_id = e.user_id');
  }
  const flags = goals.map((_, index) => `, bool_or(${flag(index)}) AS g${index}`).join('');
  ctes.push(`per_user AS (
       SELECT ${IDENTITY} AS u${flags}
         FROM sdk_users AS e ${joins.join(' ')} LEFT JOIN identities ON identities.user_id = e.user_id
        GROUP BY u
     )`);
  const counts = goals.map((_, index) => `count(*) FILTER (WHERE g${index})`).join(', ');
  const sql = `WITH ${ctes.join(',\n     ')}
     SELECT count(*)::DOUBLE AS users, [${counts}]::DOUBLE[] AS conversions FROM per_user`;
  const params: Params = Object.assign(
    rangeParams(projectId, range),
    partParams,
    ...conditions.map((condition) => condition.params),
  );
  // DuckDB refuses a parameter the text does not use (the range's ends when no goal reads the events).
  const used = Object.fromEntries(
    Object.entries(params).filter(([name]) => new RegExp(`\\$${name}\\b`).test(sql)),
  );
  const [row] = await rowsOf(connection, sql, used, GoalConversionsRow);
  return { users: row?.users ?? 0, conversions: row?.conversions ?? goals.map(() => 0) };
}
