import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { keyOf } from '../../duckdb/schema.ts';
import { type Connection, FROM, rowsOf, TO } from '../../duckdb/sql.ts';
import type { CohortQuery, CohortRow } from '../../wallet-questions.ts';
import {
  cohortRows,
  periodSql,
  RETURN_EVENTS,
  ReturnRow,
  returnsEndMs,
  SizeRow,
  UTM_COLUMN,
  usesPeriodParam,
} from './question.ts';

export async function retentionCohorts(
  connection: Connection,
  projectId: string,
  query: CohortQuery,
): Promise<CohortRow[]> {
  // The Analytics filters: wallets whose first connection was in a passing session (docs/wallets.md).
  const filter = await eventFilter(connection, projectId, query.range, query.filters);
  // DuckDB refuses a parameter its statement does not use: the cohort's, then the returns' too.
  const params = {
    ...filter.params,
    project: projectId,
    from: BigInt(query.range.fromMs),
    to: BigInt(query.range.toMs),
    ...(usesPeriodParam(query) && { period: BigInt(query.periodMs) }),
    ...(query.split && query.split.value !== null && { value: query.split.value }),
  };
  const returnParams = { ...params, until: BigInt(returnsEndMs(query)), periods: BigInt(query.periods) };
  const utm = query.split ? UTM_COLUMN[query.split.dimension] : null;
  const split = !query.split
    ? ''
    : `AND EXISTS (SELECT 1 FROM events e
                    WHERE e.project_id = $project AND e.type = 'wallet_connected'
                      AND e.wallet_address = f.wallet_address AND e.ts = f.first_connected
                      AND e.session_id = f.first_connected_session
                      AND ${query.split.value === null ? `coalesce(trim(e.${utm}), '') = ''` : `e.${utm} = $value`})`;
  const returns = RETURN_EVENTS[query.returnBy];
  const periodOf = (ms: string) =>
    periodSql(
      query,
      ms,
      (a, b) => `(${a}) // ${b}`,
      `floor((${ms} - $from::BIGINT) / $period::BIGINT)::BIGINT`,
    );
  // The filter holds session keys (ADR 093): the first connection's session's key, computed as stored.
  const matching = filter.cte
    ? `AND ${keyOf('f.first_connected_session')} IN (SELECT session_key FROM filtered_sessions)`
    : '';
  const cohort = `cohort AS (
    SELECT f.wallet_address AS wallet,
           ${periodOf('epoch_ms(f.first_connected)')} AS cohort
      FROM wallet_first_touches f
     WHERE f.project_id = $project AND f.first_connected >= ${FROM} AND f.first_connected < ${TO} ${split} ${matching}
  )`;
  const sizes = await rowsOf(
    connection,
    `${withCtes(filter.cte, cohort)} SELECT cohort, count(*) AS size FROM cohort GROUP BY cohort`,
    params,
    SizeRow,
  );
  const counted = await rowsOf(
    connection,
    `${withCtes(filter.cte, cohort)},
     returns AS (
       SELECT DISTINCT ${returns.wallet} AS wallet,
              ${periodOf('epoch_ms(ts)')} AS period
         FROM events
        WHERE project_id = $project AND ${returns.where}
          AND ts >= ${FROM} AND ts < make_timestamp($until::BIGINT * 1000)
     )
     SELECT c.cohort, r.period - c.cohort AS k, count(*) AS wallets
       FROM cohort c JOIN returns r ON r.wallet = c.wallet
      WHERE r.period - c.cohort BETWEEN 1 AND $periods::BIGINT
      GROUP BY ALL`,
    returnParams,
    ReturnRow,
  );
  return cohortRows(query, sizes, counted);
}
