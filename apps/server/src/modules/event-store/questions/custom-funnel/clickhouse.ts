import type { AttributionDimension } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { FROM, IDENTITIES_CTE, IDENTITY, rangeParams } from '../../clickhouse/sql.ts';
import {
  type CustomFunnelDefinition,
  type CustomFunnelRow,
  customFunnelRowSchema,
  MAX_SPLIT_VALUES,
  SPLIT_COLUMNS,
  stepConditions,
} from './question.ts';

/**
 * A custom funnel (docs/funnels.md#the-question), the same chain of ASOF joins as DuckDB's: each step-1
 * event in the range starts an attempt, each next step is the user's first matching event strictly after
 * the step before (`ASOF … AND c.tN < e.t`); an attempt reaches step k when its k-th time is within the
 * window after step 1; a user counts at their best attempt. Not `windowFunnel`: it keeps one attempt per
 * level, the latest, and can miss a longer chain of an earlier attempt when times tie (docs, ADR 070).
 */
export function customFunnel(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  funnel: CustomFunnelDefinition,
  split: AttributionDimension | null,
): Promise<CustomFunnelRow[]> {
  const conditions = stepConditions(funnel.steps, {
    param: (name) => `{${name}:String}`,
    pathMatches: (regex) => `match(coalesce(e.path, ''), ${regex})`,
    // As the breakdown reads a property: a string as its text, a number or boolean as its JSON text.
    propertyEquals: (_pointer, key, value) => {
      const props = "coalesce(e.props, '{}')";
      return `if(JSONType(${props}, ${key}) = 'String', JSONExtractString(${props}, ${key}), JSONExtractRaw(${props}, ${key})) = ${value}`;
    },
  });
  const n = conditions.length;
  const steps = Array.from({ length: n }, (_, index) => index + 1);
  const value = split
    ? `nullIf(trim(coalesce(e.${SPLIT_COLUMNS[split]}, '')), '')`
    : "CAST(NULL, 'Nullable(String)')";
  // ASOF LEFT JOIN without a match gives the column's default: 0, never a real time after t1 > 0.
  const chain = steps
    .slice(1)
    .map(
      (k) => `step${k} AS (SELECT who, t FROM matched WHERE s${k}),
    c${k} AS (
      SELECT c.*, if(c.t${k - 1} > 0 AND e.t > c.t${k - 1}, e.t, toInt64(0)) AS t${k}
        FROM c${k - 1} AS c ASOF LEFT JOIN step${k} AS e ON c.who = e.who AND c.t${k - 1} < e.t
    )`,
    )
    .join(',\n    ');
  const level = steps
    .slice(1)
    .map((k) => `toUInt8(t${k} > 0 AND t${k} <= t1 + {window:Int64})`)
    .join(' + ');
  const reached = steps.map((k) => `countIf(level >= ${k}) AS r${k}`).join(', ');
  const sql = `
    WITH ${IDENTITIES_CTE},
    matched AS (
      SELECT ${IDENTITY} AS who, toInt64(toUnixTimestamp64Milli(e.ts)) AS t, e.id AS id, ${value} AS value,
             ${conditions.map((condition, index) => `${condition.sql} AS s${index + 1}`).join(',\n             ')}
        FROM events AS e FINAL LEFT JOIN identities ON identities.user_id = e.user_id
       WHERE e.project_id = {project:String} AND e.ts >= ${FROM}
         AND e.ts <= fromUnixTimestamp64Milli({to:Int64} + {window:Int64}, 'UTC')
         AND (${conditions.map((condition) => condition.sql).join(' OR ')})
    ),
    c1 AS (SELECT who, t AS t1, id, value FROM matched WHERE s1 AND t < {to:Int64}),
    ${chain},
    per_user AS (
      SELECT who, max(1 + ${level}) AS level, nullIf(argMin(coalesce(value, ''), (t1, id)), '') AS value
        FROM c${n}
       GROUP BY who
    )
    SELECT * FROM (
      SELECT 1 AS is_total, CAST(NULL, 'Nullable(String)') AS value, ${reached} FROM per_user
      UNION ALL
      SELECT * FROM (
        SELECT 0 AS is_total, value, ${reached} FROM per_user WHERE {split:Bool} GROUP BY value
         ORDER BY r1 DESC, value ASC NULLS LAST LIMIT ${MAX_SPLIT_VALUES}
      )
    ) ORDER BY is_total DESC, r1 DESC, value ASC NULLS LAST`;
  const params = Object.assign(
    { ...rangeParams(projectId, range), window: funnel.windowMs, split: split !== null },
    ...conditions.map((condition) => condition.params),
  );
  return clickhouse.rows(sql, params, customFunnelRowSchema(n));
}
