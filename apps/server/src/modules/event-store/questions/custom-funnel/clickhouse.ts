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
 * A custom funnel (docs/funnels.md#the-question) in one read of the events: per SDK user, each step's
 * times (and, for the split, its first start's time, id and landing value); per user (identify applied,
 * looked up per SDK user rather than per event) those merged into sorted arrays; each step-1 time in the
 * range starts an attempt, whose next step is the first time of that step strictly after the step before
 * (`arrayFirst`); an attempt reaches step k when its k-th time is within the window after step 1; a user
 * counts at their best attempt; the Total and the split's rows in one grouping (ROLLUP). Not joins as on
 * DuckDB: ClickHouse evaluates a CTE at each reference, so the events would be read once per step. Not
 * `windowFunnel`: it keeps one attempt per level and can miss a longer chain when times tie (ADR 070). No
 * FINAL: an event stored twice adds a time already there, which changes no attempt (ADR 085).
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
  const later = steps.slice(1);
  const value = split
    ? `nullIf(trim(coalesce(e.${SPLIT_COLUMNS[split]}, '')), '')`
    : "CAST(NULL, 'Nullable(String)')";
  const isStart = 's1 AND t < {to:Int64}';
  // Per user, each step's times sorted; then per attempt (a1: its step-1 times) the next step's time is
  // the first of the step's times after the step before (arrayFirst: 0 when there is none).
  // Per SDK user, each step's times; then per user (identify applied) the SDK users' times merged and
  // sorted. The identity is looked up per SDK user, not per event.
  const sdkTimes = [
    `groupArrayIf(t, ${isStart}) AS a1`,
    ...later.map((k) => `groupArrayIf(t, s${k}) AS a${k}`),
  ].join(',\n             ');
  const times = steps.map((k) => `arraySort(groupArrayArray(e.a${k})) AS a${k}`).join(',\n             ');
  const chain = later
    .map((k) =>
      k === 2
        ? 'arrayMap(x -> arrayFirst(y -> y > x, a2), a1) AS b2'
        : `arrayMap(x -> if(x = 0, toInt64(0), arrayFirst(y -> y > x, a${k})), b${k - 1}) AS b${k}`,
    )
    .join(',\n             ');
  const attempt = `(${['t1', ...later.map((k) => `t${k}`)].join(', ')}) -> 1 + ${later
    .map((k) => `toUInt8(t${k} > 0 AND t${k} <= t1 + {window:Int64})`)
    .join(' + ')}`;
  const reached = steps.map((k) => `countIf(level >= ${k}) AS r${k}`).join(', ');
  const sql = `
    WITH ${IDENTITIES_CTE},
    matched AS (
      SELECT e.user_id AS user_id, toInt64(toUnixTimestamp64Milli(e.ts)) AS t,${split ? ` e.id AS id, ${value} AS value,` : ''}
             ${conditions.map((condition, index) => `${condition.sql} AS s${index + 1}`).join(',\n             ')}
        FROM events AS e
       WHERE e.project_id = {project:String} AND e.ts >= ${FROM}
         AND e.ts <= fromUnixTimestamp64Milli({to:Int64} + {window:Int64}, 'UTC')
         AND (${conditions.map((condition) => condition.sql).join(' OR ')})
    ),
    per_sdk_user AS (
      SELECT user_id, ${sdkTimes}${
        split
          ? `,
             minIf((t, id, coalesce(value, '')), ${isStart}) AS first_start`
          : ''
      }
        FROM matched
       GROUP BY user_id
    ),
    per_user AS (
      SELECT ${IDENTITY} AS who, ${times},
             ${split ? 'minIf(e.first_start, length(e.a1) > 0).3' : "''"} AS first_value
        FROM per_sdk_user AS e LEFT JOIN identities ON identities.user_id = e.user_id
       GROUP BY who
      HAVING length(a1) > 0
    ),
    levels AS (
      SELECT who, nullIf(first_value, '') AS landing, ${chain},
             arrayMax(arrayMap(${attempt}, a1, ${later.map((k) => `b${k}`).join(', ')})) AS level
        FROM per_user
    )
    SELECT ${split ? 'grouping(landing) = 1' : '1'} AS is_total,
           ${split ? 'if(grouping(landing) = 1, NULL, landing)' : "CAST(NULL, 'Nullable(String)')"} AS value, ${reached}
      FROM levels ${split ? 'GROUP BY ROLLUP(landing)' : ''}
     ORDER BY is_total DESC, r1 DESC, value ASC NULLS LAST
     LIMIT ${MAX_SPLIT_VALUES + 1}`;
  const params = Object.assign(
    { ...rangeParams(projectId, range), window: funnel.windowMs },
    ...conditions.map((condition) => condition.params),
  );
  return clickhouse.rows(sql, params, customFunnelRowSchema(n));
}
