import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { dayParts } from '../../clickhouse/day-parts.ts';
import { IDENTITIES_CTE, IDENTITY, IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
import type { GoalMatch } from '../../goal-questions.ts';
import { type GoalConversionCounts, GoalConversionsRow } from './question.ts';

/** Whether a path (an expression) matches the path goal whose expression is the parameter `{<prefix>_re}`. */
const pathMatch = (prefix: string, path: string) => `ifNull(match(${path}, {${prefix}_re:String}), 0)`;

/**
 * Whether an `events AS e` row matches a goal, with the goal's text as parameters `{<prefix>_…}` (never
 * in the SQL): a custom event of the name (and the property's value as text, as the breakdown reads it),
 * or a page view whose path the pattern's expression matches whole (it is anchored).
 */
export function goalCondition(
  goal: GoalMatch,
  prefix: string,
): { sql: string; params: Record<string, string> } {
  if (goal.kind === 'path') {
    return {
      sql: `(e.type = 'page_view' AND ${pathMatch(prefix, 'e.path')})`,
      params: { [`${prefix}_re`]: goal.pathRegex },
    };
  }
  const name = `e.type = 'custom' AND ifNull(e.event_name = {${prefix}_name:String}, 0)`;
  if (goal.propertyKey === null || goal.propertyValue === null) {
    return { sql: `(${name})`, params: { [`${prefix}_name`]: goal.eventName } };
  }
  const props = "ifNull(e.props, '')";
  const key = `{${prefix}_key:String}`;
  const value = `if(JSONType(${props}, ${key}) = 'String', JSONExtractString(${props}, ${key}),
                    JSONExtractRaw(${props}, ${key}))`;
  return {
    sql: `(${name} AND JSONHas(${props}, ${key}) AND ${value} = {${prefix}_value:String})`,
    params: {
      [`${prefix}_name`]: goal.eventName,
      [`${prefix}_key`]: goal.propertyKey,
      [`${prefix}_value`]: goal.propertyValue,
    },
  };
}

/**
 * Users with any event in the range and, per goal, those with an event matching it (docs/goals.md#conversions),
 * reading only what each part needs (ADR 085, 094): the range's SDK users from `user_days` for its whole
 * UTC days and from the events for the pieces of days at its ends; the range's page views alone, each
 * tested against the path goals' expressions and grouped per SDK user (ClickHouse's \`match\` per page
 * view cost less than gathering each user's distinct paths, ADR 094); the range's rows of `custom_events` (ADR 072) for the event goals. Then the SDK users' flags are merged per
 * user (identify applied) and counted. No FINAL: every part is a set or a maximum, which a row stored
 * twice does not change.
 */
export async function goalConversions(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  goals: readonly GoalMatch[],
): Promise<GoalConversionCounts> {
  const conditions = goals.map((goal, index) => goalCondition(goal, `g${index}`));
  const eventGoals = goals.flatMap((goal, index) => (goal.kind === 'event' ? [index] : []));
  const pathGoals = goals.flatMap((goal, index) => (goal.kind === 'path' ? [index] : []));
  const condition = (index: number) => conditions[index]?.sql ?? '0';
  const parts = dayParts(range);
  const ctes = [IDENTITIES_CTE];
  // The range's SDK users: its whole UTC days from `user_days`, the pieces of days at its ends from the events.
  const users = [
    ...(parts.wholeDays
      ? [`SELECT user_id FROM user_days WHERE project_id = {project:String} AND ${parts.wholeDays}`]
      : []),
    ...(parts.partialDays
      ? [`SELECT user_id FROM events WHERE project_id = {project:String} AND ${parts.partialDays}`]
      : []),
  ];
  ctes.push(`sdk_users AS (
       SELECT DISTINCT user_id FROM (${users.join(' UNION ALL ')})
     )`);
  const joins: string[] = [];
  if (pathGoals.length > 0) {
    // The range's page views alone, each tested against the path goals: a flag per goal and SDK user.
    ctes.push(`path_users AS (
       SELECT user_id, ${pathGoals.map((index) => `max(${condition(index)}) AS g${index}`).join(', ')}
         FROM events AS e
        WHERE ${IN_RANGE} AND type = 'page_view'
        GROUP BY user_id
     )`);
    joins.push('LEFT JOIN path_users ON path_users.user_id = e.user_id');
  }
  if (eventGoals.length > 0) {
    ctes.push(`event_users AS (
       SELECT user_id, ${eventGoals.map((index) => `max(${condition(index)}) AS g${index}`).join(', ')}
         FROM custom_events AS e
        WHERE ${IN_RANGE} AND type = 'custom'
        GROUP BY user_id
     )`);
    joins.push('LEFT JOIN event_users ON event_users.user_id = e.user_id');
  }
  // A user without page views or custom events meets the LEFT JOINs' default, 0.
  const source = (index: number) =>
    goals[index]?.kind === 'path' ? `path_users.g${index}` : `event_users.g${index}`;
  const flags = goals.map((_, index) => `, max(${source(index)}) AS g${index}`).join('');
  ctes.push(`per_user AS (
       SELECT ${IDENTITY} AS u${flags}
         FROM sdk_users AS e ${joins.join(' ')} LEFT JOIN identities ON identities.user_id = e.user_id
        GROUP BY u
     )`);
  const counts = goals.map((_, index) => `countIf(g${index} = 1)`).join(', ');
  const [row] = await clickhouse.rows(
    `WITH ${ctes.join(',\n     ')}
     SELECT count() AS users, ${goals.length === 0 ? "CAST([], 'Array(UInt64)')" : `[${counts}]`} AS conversions
       FROM per_user`,
    Object.assign(
      rangeParams(projectId, range),
      parts.params,
      ...conditions.map((condition) => condition.params),
    ),
    GoalConversionsRow,
  );
  return { users: row?.users ?? 0, conversions: row?.conversions ?? goals.map(() => 0) };
}
