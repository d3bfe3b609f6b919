import type { AcquisitionFilters, AttributionDimension } from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { sessionFilter, withSessionRows } from '../../duckdb/session-rows.ts';
import { LANDING_COLUMNS } from '../../duckdb/sessions.ts';
import { type Connection, IDENTITIES_CTE, IDENTITY, IN_RANGE, rowsOf } from '../../duckdb/sql.ts';
import type { GoalMatch } from '../../goal-questions.ts';
import { goalCondition } from '../goal-conversions/duckdb.ts';
import { type GoalAttributionCount, GoalAttributionRow } from './question.ts';

/**
 * A goal's converting users per landing value of one UTM field (docs/goals.md#in-the-attribution-table),
 * over the attribution table's own per-session rows (ADR 094): the range's sessions (user, session id)
 * as `session_rows` gives them (the stored `sessions` row of a session wholly inside the range, one the
 * range cuts through recomputed from its events in it), each with its landing value (the smallest
 * non-blank one) and whether it passes the filters, by the same expressions the attribution table
 * reads. A session converts when one of its events in the range matches the goal: those few (session,
 * user) pairs come from one filtered read of the events. A row's conversions are the distinct users
 * (identify applied, looked up per converting session) of its converting sessions; every value of a
 * passing session has its row, 0 without one.
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
  const landing = LANDING_COLUMNS[dimension][0];
  const condition = goalCondition(goal, 'goal');
  const filter = sessionFilter(filters);
  const sql = (sessionRows: string) => `
    WITH ${IDENTITIES_CTE},
    ${sessionRows},
    converting AS (
      SELECT DISTINCT session_id, user_id FROM events WHERE ${IN_RANGE} AND ${condition.sql}
    ),
    passing AS (
      SELECT session_id, user_id, ${landing} AS value FROM session_rows WHERE ${filter.condition}
    ),
    converted AS (
      SELECT e.value, ${IDENTITY} AS u
        FROM passing AS e
        JOIN converting AS c ON c.session_id = e.session_id AND c.user_id = e.user_id
        LEFT JOIN identities ON identities.user_id = e.user_id
    )
    SELECT false AS is_total, v.value, count(DISTINCT c.u)::DOUBLE AS conversions
      FROM (SELECT DISTINCT value FROM passing) AS v LEFT JOIN converted AS c ON c.value IS NOT DISTINCT FROM v.value
     GROUP BY v.value
    UNION ALL
    SELECT true AS is_total, NULL AS value, count(DISTINCT u)::DOUBLE AS conversions FROM converted`;
  const rows = await withSessionRows(
    connection,
    projectId,
    range,
    [landing, ...filter.columns],
    (sessionRows, params) =>
      rowsOf(
        connection,
        sql(sessionRows),
        { ...params, ...condition.params, ...filter.params },
        GoalAttributionRow,
      ),
  );
  return rows.map((row) => ({ isTotal: row.is_total, value: row.value, conversions: row.conversions }));
}
