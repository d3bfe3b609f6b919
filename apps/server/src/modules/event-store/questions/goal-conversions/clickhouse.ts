import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { IDENTITIES_CTE, IDENTITY, IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
import type { GoalMatch } from '../../goal-questions.ts';
import { type GoalConversionCounts, GoalConversionsRow } from './question.ts';

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
      sql: `(e.type = 'page_view' AND ifNull(match(e.path, {${prefix}_re:String}), 0))`,
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
 * Users with any event in the range and, per goal, those with an event matching it (docs/goals.md#conversions):
 * one pass grouping the range's events by user with a flag per goal, then a count per flag.
 */
export async function goalConversions(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  goals: readonly GoalMatch[],
): Promise<GoalConversionCounts> {
  const conditions = goals.map((goal, index) => goalCondition(goal, `g${index}`));
  const flags = conditions.map((condition, index) => `, max(${condition.sql}) AS g${index}`).join('');
  const counts = conditions.map((_, index) => `countIf(g${index} = 1)`).join(', ');
  const [row] = await clickhouse.rows(
    `WITH ${IDENTITIES_CTE}
     SELECT count() AS users, ${goals.length === 0 ? "CAST([], 'Array(UInt64)')" : `[${counts}]`} AS conversions
       FROM (
         SELECT ${IDENTITY} AS u${flags}
           FROM events AS e FINAL LEFT JOIN identities ON identities.user_id = e.user_id
          WHERE ${IN_RANGE}
          GROUP BY u
       )`,
    Object.assign(rangeParams(projectId, range), ...conditions.map((condition) => condition.params)),
    GoalConversionsRow,
  );
  return { users: row?.users ?? 0, conversions: row?.conversions ?? goals.map(() => 0) };
}
