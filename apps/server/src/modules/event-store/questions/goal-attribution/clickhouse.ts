import type { AcquisitionFilters, AttributionDimension } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import type { SessionAggregate } from '../../clickhouse/session-days.ts';
import { foldedSessionRows, READ_RANGE_IN_PARALLEL } from '../../clickhouse/session-rows.ts';
import { IDENTITIES_CTE, IDENTITY, IN_RANGE, rangeParams } from '../../clickhouse/sql.ts';
import type { GoalMatch } from '../../goal-questions.ts';
import { goalCondition } from '../goal-conversions/clickhouse.ts';
import { type GoalAttributionCount, GoalAttributionRow } from './question.ts';

/** A fixed map, never caller text: the dimension picks one of the sessions' landing columns. */
const DIMENSION_COLUMNS: Record<AttributionDimension, SessionAggregate> = {
  campaign: 'landing_campaign',
  source: 'landing_source',
  medium: 'landing_medium',
  content: 'landing_content',
  term: 'landing_term',
};

/**
 * A goal's converting users per landing value of one UTM field (docs/goals.md#in-the-attribution-table),
 * over the attribution table's own per-session rows (ADR 094): the range's rows read once and folded
 * per session exactly as the attribution table folds them (session-rows.ts `foldedSessionRows`, ADR 043),
 * each with its landing value (the smallest non-blank one) and whether it passes the filters. A session
 * converts when one of its events in the range matches the goal: those few (session, user) pairs come
 * from one filtered read of the events, and each row asks whether its pair is among them. A row's
 * conversions are the distinct users (identify applied, looked up per row) of its converting sessions;
 * every value of a passing session has its row, 0 without one. No FINAL: sets and minima (ADR 085).
 */
export async function goalAttribution(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  dimension: AttributionDimension,
  goal: GoalMatch,
  filters: AcquisitionFilters,
): Promise<GoalAttributionCount[]> {
  const value = DIMENSION_COLUMNS[dimension];
  const condition = goalCondition(goal, 'goal');
  const rows = foldedSessionRows([value], filters, range);
  const result = await clickhouse.rows(
    `WITH ${IDENTITIES_CTE},
    converting AS (
      SELECT DISTINCT session_id, user_id FROM events AS e WHERE ${IN_RANGE} AND ${condition.sql}
    ),
    ${rows.repeatedSessions},
    session_groups AS (
      SELECT if(isNull(folded_session), m_${value}, NULL) AS single_value, user_id,
             ${rows.foldedSession} AS folded_session,
             min(m_${value}) AS value,
             max((session_id, user_id) IN converting) AS converted
        FROM ${rows.from}
       GROUP BY single_value, user_id, folded_session
      HAVING ${rows.passes}
    )
    SELECT grouping(value) = 1 AS is_total, value, uniqExactIf(${IDENTITY}, converted = 1) AS conversions
      FROM session_groups AS e LEFT JOIN identities ON identities.user_id = e.user_id
     GROUP BY ROLLUP(value)
    ${READ_RANGE_IN_PARALLEL}`,
    { ...rangeParams(projectId, range), ...condition.params, ...rows.params },
    GoalAttributionRow,
  );
  // Without a session there is no row to roll up; the Total row still exists, 0.
  if (!result.some((row) => row.is_total)) result.push({ is_total: true, value: null, conversions: 0 });
  return result.map((row) => ({ isTotal: row.is_total, value: row.value, conversions: row.conversions }));
}
