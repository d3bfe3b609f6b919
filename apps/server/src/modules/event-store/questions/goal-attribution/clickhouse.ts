import type { AcquisitionFilters, AttributionDimension } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { IDENTITIES_CTE, IDENTITY, IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
import { activeFilters, type GoalMatch } from '../../goal-questions.ts';
import { goalCondition } from '../goal-conversions/clickhouse.ts';
import { type GoalAttributionCount, GoalAttributionRow } from './question.ts';

/** A fixed map, never caller text: the dimension picks one of the events' UTM columns. */
const UTM_COLUMNS: Record<AttributionDimension, string> = {
  campaign: 'utm_campaign',
  source: 'utm_source',
  medium: 'utm_medium',
  content: 'utm_content',
  term: 'utm_term',
};

/**
 * A goal's converting users per landing value of one UTM field (docs/goals.md#in-the-attribution-table):
 * the range's events grouped into sessions (user, session id) with their landing value (the smallest
 * non-blank one, as the attribution table reads it), whether they pass the filters and whether one of
 * their events matches the goal; a row's conversions are the distinct users of its converting sessions.
 */
export async function goalAttribution(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  dimension: AttributionDimension,
  goal: GoalMatch,
  filters: AcquisitionFilters,
): Promise<GoalAttributionCount[]> {
  const utm = `e.${UTM_COLUMNS[dimension]}`;
  const condition = goalCondition(goal, 'goal');
  const filterList = activeFilters(filters);
  const params: Params = { ...rangeParams(projectId, range), ...condition.params };
  for (const [, param, values] of filterList) params[param] = values;
  const passes = filterList.map(
    ([column, param]) => `max(has({${param}:Array(String)}, ifNull(e.${column}, ''))) = 1`,
  );
  const rows = await clickhouse.rows(
    `WITH ${IDENTITIES_CTE},
     sessions AS (
       SELECT e.user_id AS user_id, min(nullIf(trim(ifNull(${utm}, '')), '')) AS value,
              max(${condition.sql}) = 1 AS converted
         FROM events AS e
        WHERE ${IN_RANGE}
        GROUP BY e.user_id, e.session_id
       HAVING ${passes.length === 0 ? '1' : passes.join(' AND ')}
     )
     SELECT grouping(value) = 1 AS is_total, value, uniqExactIf(${IDENTITY}, converted) AS conversions
       FROM sessions AS e LEFT JOIN identities ON identities.user_id = e.user_id
      GROUP BY ROLLUP(value)
`,
    params,
    GoalAttributionRow,
  );
  if (!rows.some((row) => row.is_total)) rows.push({ is_total: true, value: null, conversions: 0 });
  return rows.map((row) => ({ isTotal: row.is_total, value: row.value, conversions: row.conversions }));
}
