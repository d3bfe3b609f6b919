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
 * A custom funnel (docs/funnels.md#the-question): one window pass gives, for each (user, time) of a
 * matching event, the first time of every later step strictly after it; every step-1 event in the range
 * starts an attempt, whose step k is then the next step-k time after its step k-1 (an equality join per
 * step). An attempt reaches step k when its k-th time is within the window after step 1; a user counts at
 * their best attempt; the split value is the landing UTM of the user's first step-1 event (time, then id).
 * Not ASOF joins: DuckDB's `ASOF LEFT JOIN … c.t < e.t` matched users without any such event on the bench
 * store (ADR 070).
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
  const later = steps.slice(1);
  const value = split ? `NULLIF(trim(e.${SPLIT_COLUMNS[split]}), '')` : 'NULL::VARCHAR';
  // Per (user, time): the first time of each later step strictly after it (integer ms: 1 FOLLOWING on).
  const nexts = later.map((k) => `min(t) FILTER (WHERE s${k}) OVER later AS n${k}`).join(',\n             ');
  // Attempt by attempt, step k's time is the next one after step k-1's time: an equality join.
  const chain = later
    .slice(1)
    .map(
      (k) => `c${k} AS (
      SELECT c.*, a.n${k} AS t${k} FROM c${k - 1} AS c LEFT JOIN at_time AS a ON a.who = c.who AND a.t = c.t${k - 1}
    )`,
    )
    .join(',\n    ');
  const level = later.map((k) => `coalesce(t${k} <= t1 + $window::BIGINT, false)::INTEGER`).join(' + ');
  const reached = steps.map((k) => `count(*) FILTER (WHERE level >= ${k})::DOUBLE AS r${k}`).join(', ');
  const sql = `
    WITH ${IDENTITIES_CTE},
    matched AS (
      SELECT ${IDENTITY} AS who, epoch_ms(e.ts) AS t, e.id AS id, ${value} AS value,
             ${conditions.map((condition, index) => `${condition.sql} AS s${index + 1}`).join(',\n             ')}
        FROM events AS e LEFT JOIN identities ON identities.user_id = e.user_id
       WHERE project_id = $project AND ts >= ${FROM}
         AND ts <= make_timestamp(($to::BIGINT + $window::BIGINT) * 1000)
         AND (${conditions.map((condition) => condition.sql).join(' OR ')})
    ),
    at_time AS (
      SELECT DISTINCT who, t,
             ${nexts}
        FROM matched
      WINDOW later AS (PARTITION BY who ORDER BY t RANGE BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)
    ),
    c2 AS (
      SELECT m.who, m.t AS t1, m.id, m.value, a.n2 AS t2
        FROM matched AS m JOIN at_time AS a ON a.who = m.who AND a.t = m.t
       WHERE m.s1 AND m.t < $to
    )${chain ? `,\n    ${chain}` : ''},
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
