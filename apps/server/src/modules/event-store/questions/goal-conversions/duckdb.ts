import type { TimeRange } from '../../../../reading/time-range.ts';
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
 * Users with any event in the range and, per goal, those with an event matching it (docs/goals.md#conversions):
 * one pass grouping the range's events by user with a flag per goal, then a count per flag.
 */
export async function goalConversions(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  goals: readonly GoalMatch[],
): Promise<GoalConversionCounts> {
  const conditions = goals.map((goal, index) => goalCondition(goal, `g${index}`));
  const flags = conditions.map((condition, index) => `, bool_or(${condition.sql}) AS g${index}`).join('');
  const counts = conditions.map((_, index) => `count(*) FILTER (WHERE g${index})`).join(', ');
  const [row] = await rowsOf(
    connection,
    `WITH ${IDENTITIES_CTE},
     per_user AS (
       SELECT ${IDENTITY} AS u${flags}
         FROM events AS e LEFT JOIN identities ON identities.user_id = e.user_id
        WHERE ${IN_RANGE}
        GROUP BY u
     )
     SELECT count(*)::DOUBLE AS users, [${counts}]::DOUBLE[] AS conversions FROM per_user`,
    Object.assign(rangeParams(projectId, range), ...conditions.map((condition) => condition.params)),
    GoalConversionsRow,
  );
  return { users: row?.users ?? 0, conversions: row?.conversions ?? goals.map(() => 0) };
}
