import type { AcquisitionFilters, AttributionDimension } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { LANDING_COLUMNS } from '../../duckdb/sessions.ts';
import {
  type Connection,
  IDENTITIES_CTE,
  IDENTITY,
  IN_RANGE,
  type Params,
  rangeParams,
  rowsOf,
  textListParam,
} from '../../duckdb/sql.ts';
import { activeFilters, type GoalMatch } from '../../goal-questions.ts';
import { goalCondition } from '../goal-conversions/duckdb.ts';
import { type GoalAttributionCount, GoalAttributionRow } from './question.ts';

/**
 * A goal's converting users per landing value of one UTM field (docs/goals.md#in-the-attribution-table):
 * the range's events grouped into sessions (user, session id) with their landing value (the smallest
 * non-blank one, as the attribution table reads it), whether they pass the filters and whether one of
 * their events matches the goal; a row's conversions are the distinct users of its converting sessions.
 * The identity (identify applied) is looked up per session, not per event.
 */
export async function goalAttribution(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  dimension: AttributionDimension,
  goal: GoalMatch,
  filters: AcquisitionFilters,
): Promise<GoalAttributionCount[]> {
  // A fixed column by the dimension, never caller text.
  const utm = LANDING_COLUMNS[dimension][1];
  const condition = goalCondition(goal, 'goal');
  const filterList = activeFilters(filters);
  const params: Params = { ...rangeParams(projectId, range), ...condition.params };
  for (const [, param, values] of filterList) params[param] = textListParam(values);
  const passes = filterList.map(
    ([column, param]) => `bool_or(list_contains($${param}::VARCHAR[], ${column}))`,
  );
  const rows = await rowsOf(
    connection,
    `WITH ${IDENTITIES_CTE},
     sessions AS (
       SELECT e.user_id, min(NULLIF(trim(${utm}), '')) AS value,
              coalesce(bool_or(${condition.sql}), false) AS converted
         FROM events AS e
        WHERE ${IN_RANGE}
        GROUP BY e.user_id, e.session_id
       HAVING ${passes.length === 0 ? 'true' : passes.map((pass) => `coalesce(${pass}, false)`).join(' AND ')}
     ),
     users AS (
       SELECT value, converted, ${IDENTITY} AS u
         FROM sessions AS e LEFT JOIN identities ON identities.user_id = e.user_id
     )
     SELECT false AS is_total, value, count(DISTINCT u) FILTER (WHERE converted)::DOUBLE AS conversions
       FROM users GROUP BY value
     UNION ALL
     SELECT true AS is_total, NULL AS value, count(DISTINCT u) FILTER (WHERE converted)::DOUBLE AS conversions
       FROM users`,
    params,
    GoalAttributionRow,
  );
  return rows.map((row) => ({ isTotal: row.is_total, value: row.value, conversions: row.conversions }));
}
