import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { dayParts } from '../../clickhouse/day-parts.ts';
import { IDENTITY_KEYS_CTE, IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
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

/** Goals per flag mask: one UInt64 of bits per 64 goals (a project has at most 50). */
const MASK_BITS = 64;

/**
 * Users with any event in the range and, per goal, those with an event matching it (docs/goals.md#conversions),
 * reading only what each part needs (ADR 085, 094, 112): the range's SDK users from `user_days` for its whole
 * UTC days and from the events for the pieces of days at its ends; the range's page views alone, each
 * tested against the path goals' expressions (ClickHouse's \`match\` per page view cost less than gathering
 * each user's distinct paths, ADR 094); the range's rows of `custom_events` (ADR 072) for the event goals.
 * Each part gives one row per SDK user, its 64-bit key (`user_key`, ADR 093) and the goals it matched as
 * bits of a mask (`groupBitOr`), all in one UNION ALL grouped by the key: no join of a part per goal, no
 * grouping by text. Then the SDK users' masks are merged per user (identify applied: the app's user id
 * keyed apart from every SDK id, as the funnel does, ADR 094/103) and counted. No FINAL: every part is a
 * set or a bitwise OR, which a row stored twice does not change.
 */
export async function goalConversions(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  goals: readonly GoalMatch[],
): Promise<GoalConversionCounts> {
  const conditions = goals.map((goal, index) => goalCondition(goal, `g${index}`));
  const masks = Array.from({ length: Math.max(1, Math.ceil(goals.length / MASK_BITS)) }, (_, m) => m);
  // A path goal's test on a page view's path (the parts read page views alone), an event goal's on a row.
  const matches = (index: number) =>
    goals[index]?.kind === 'path' ? pathMatch(`g${index}`, 'e.path') : (conditions[index]?.sql ?? '0');
  /** The mask `m` of a row: the bits of the goals of `kind` among goals m·64 … m·64 + 63. */
  const maskOf = (m: number, kind: GoalMatch['kind']) => {
    const bits = goals.flatMap((goal, index) =>
      goal.kind === kind && Math.floor(index / MASK_BITS) === m
        ? [`bitShiftLeft(toUInt64(${matches(index)}), ${index % MASK_BITS})`]
        : [],
    );
    return bits.length === 0 ? 'toUInt64(0)' : bits.reduce((mask, bit) => `bitOr(${mask}, ${bit})`);
  };
  const none = masks.map((m) => `toUInt64(0) AS m${m}`).join(', ');
  const kinds = new Set(goals.map((goal) => goal.kind));
  const parts = dayParts(range);
  // The range's SDK users: its whole UTC days from `user_days`, the pieces of days at its ends from the events.
  const selects = [
    ...(parts.wholeDays
      ? [
          `SELECT DISTINCT cityHash64(user_id) AS user_key, ${none}
             FROM user_days WHERE project_id = {project:String} AND ${parts.wholeDays}`,
        ]
      : []),
    ...(parts.partialDays
      ? [
          `SELECT DISTINCT user_key, ${none}
             FROM events WHERE project_id = {project:String} AND ${parts.partialDays}`,
        ]
      : []),
  ];
  // The range's page views alone, each tested against the path goals; the custom events against the others.
  // Path goals: the whole days' (user, path) pairs from `user_day_paths`, the partial days' page views.
  const pathMasks = masks.map((m) => `groupBitOr(${maskOf(m, 'path')}) AS m${m}`).join(', ');
  if (kinds.has('path') && parts.wholeDays)
    selects.push(`SELECT user_key, ${pathMasks}
             FROM user_day_paths AS e
            WHERE project_id = {project:String} AND ${parts.wholeDays}
            GROUP BY user_key`);
  if (kinds.has('path') && parts.partialDays)
    selects.push(`SELECT user_key, ${pathMasks}
             FROM events AS e
            WHERE project_id = {project:String} AND ${parts.partialDays} AND type = 'page_view'
            GROUP BY user_key`);
  if (kinds.has('event'))
    selects.push(`SELECT cityHash64(user_id) AS user_key, ${masks
      .map((m) => `groupBitOr(${maskOf(m, 'event')}) AS m${m}`)
      .join(', ')}
             FROM custom_events AS e
            WHERE ${IN_RANGE} AND type = 'custom'
            GROUP BY user_id`);
  const merged = masks.map((m) => `groupBitOr(m${m}) AS m${m}`).join(', ');
  const counts = goals
    .map((_, index) => `countIf(bitTest(m${Math.floor(index / MASK_BITS)}, ${index % MASK_BITS}))`)
    .join(', ');
  const [row] = await clickhouse.rows(
    `WITH ${IDENTITY_KEYS_CTE},
     sdk_users AS (
       SELECT user_key, ${merged}
         FROM (${selects.join('\n           UNION ALL\n           ')})
        GROUP BY user_key
     ),
     per_user AS (
       SELECT if(k.app_key = 0, e.user_key, k.app_key) AS who, ${merged.replaceAll('(m', '(e.m')}
         FROM sdk_users AS e LEFT JOIN identity_keys AS k ON k.user_key = e.user_key
        GROUP BY who
     )
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
