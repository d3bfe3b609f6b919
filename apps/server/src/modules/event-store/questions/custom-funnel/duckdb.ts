import type { AttributionDimension } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../../reading/time-range.ts';
import {
  type Connection,
  FROM,
  IDENTITIES_CTE,
  IDENTITY,
  type Params,
  rangeParams,
  rowsOf,
} from '../../duckdb/sql.ts';
import {
  type CustomFunnelDefinition,
  type CustomFunnelRow,
  customFunnelRowSchema,
  MAX_SPLIT_VALUES,
  SPLIT_COLUMNS,
  stepConditions,
} from './question.ts';

/**
 * A custom funnel (docs/funnels.md#the-question) as a chain of ASOF joins: every step-1 event in the range
 * starts an attempt, and each next step is the user's first matching event strictly after the step before
 * (`ASOF … AND c.tN < e.t` finds the smallest such time), so one pass per step whatever the number of
 * events. An attempt reaches step k when its k-th time is within the window after step 1; a user counts at
 * their best attempt; the split value is the landing UTM of the user's first step-1 event (time, then id).
 */
export function customFunnel(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  funnel: CustomFunnelDefinition,
  split: AttributionDimension | null,
): Promise<CustomFunnelRow[]> {
  const conditions = stepConditions(funnel.steps, {
    param: (name) => `$${name}`,
    pathMatches: (regex) => `regexp_matches(coalesce(path, ''), ${regex})`,
    propertyEquals: (pointer, _key, value) => `json_extract_string(props, ${pointer}) = ${value}`,
  });
  const n = conditions.length;
  const steps = Array.from({ length: n }, (_, index) => index + 1);
  const value = split ? `NULLIF(trim(events.${SPLIT_COLUMNS[split]}), '')` : 'NULL::VARCHAR';
  const chain = steps
    .slice(1)
    .map(
      (k) => `step${k} AS (SELECT who, t FROM matched WHERE s${k}),
    c${k} AS (
      SELECT c.*, e.t AS t${k} FROM c${k - 1} AS c ASOF LEFT JOIN step${k} AS e ON c.who = e.who AND c.t${k - 1} < e.t
    )`,
    )
    .join(',\n    ');
  const level = steps
    .slice(1)
    .map((k) => `(t${k} IS NOT NULL AND t${k} <= t1 + $window::BIGINT)::INTEGER`)
    .join(' + ');
  const reached = steps.map((k) => `count(*) FILTER (WHERE level >= ${k})::DOUBLE AS r${k}`).join(', ');
  const sql = `
    WITH ${IDENTITIES_CTE},
    matched AS (
      SELECT ${IDENTITY} AS who, epoch_ms(events.ts) AS t, events.id AS id, ${value} AS value,
             ${conditions.map((condition, index) => `${condition.sql} AS s${index + 1}`).join(',\n             ')}
        FROM events LEFT JOIN identities ON identities.user_id = events.user_id
       WHERE project_id = $project AND ts >= ${FROM} AND ts <= make_timestamp(($to::BIGINT + $window::BIGINT) * 1000)
         AND (${conditions.map((condition) => condition.sql).join(' OR ')})
    ),
    c1 AS (SELECT who, t AS t1, id, value FROM matched WHERE s1 AND t < $to),
    ${chain},
    per_user AS (
      SELECT who, max(1 + ${level}) AS level, NULLIF(arg_min(coalesce(value, ''), (t1, id)), '') AS value
        FROM c${n}
       GROUP BY who
    ),
    totals AS (SELECT true AS is_total, NULL::VARCHAR AS value, ${reached} FROM per_user),
    split AS (
      SELECT false AS is_total, value, ${reached} FROM per_user WHERE $split GROUP BY value
       ORDER BY r1 DESC, value NULLS LAST LIMIT ${MAX_SPLIT_VALUES}
    )
    SELECT * FROM totals UNION ALL SELECT * FROM split`;
  const params: Params = {
    ...rangeParams(projectId, range),
    window: BigInt(funnel.windowMs),
    split: split !== null,
    ...Object.assign({}, ...conditions.map((condition) => condition.params)),
  };
  // DuckDB refuses a parameter the text does not use (a property's key: its JSON pointer is used instead).
  const used: Params = Object.fromEntries(
    Object.entries(params).filter(([name]) => new RegExp(`\\$${name}\\b`).test(sql)),
  );
  return rowsOf(connection, sql, used, customFunnelRowSchema(n));
}
