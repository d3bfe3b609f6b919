import { z } from 'zod';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter } from '../../clickhouse/event-filter.ts';
import { EVENT_ROWS, FROM, IN_RANGE, ms, TO } from '../../clickhouse/sql.ts';
import { count } from '../../rows.ts';
import type { CohortQuery, CohortRow } from '../../wallet-questions.ts';
import {
  cohortRows,
  periodSql,
  RETURN_EVENTS,
  ReturnRow,
  returnsEndMs,
  SizeRow,
  UTM_COLUMN,
} from './question.ts';

export async function retentionCohorts(
  clickhouse: ClickHouse,
  projectId: string,
  query: CohortQuery,
): Promise<CohortRow[]> {
  // The Analytics filters: wallets whose first connection was in a passing session (docs/wallets.md).
  const filter = eventFilter(query.filters, query.range);
  const params = {
    ...filter.params,
    project: projectId,
    from: query.range.fromMs,
    to: query.range.toMs,
    period: query.periodMs,
    until: returnsEndMs(query),
    periods: query.periods,
    value: query.split?.value ?? '',
  };
  const utm = query.split ? UTM_COLUMN[query.split.dimension] : null;
  // The first connection's event carries the session's landing UTM (acquisition's definition).
  const split = !query.split
    ? ''
    : `AND (wallet, first_at) IN (
         SELECT wallet_address, ts FROM ${EVENT_ROWS}
          WHERE project_id = {project:String} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
            AND ts >= ${FROM} AND ts < ${TO}
            AND ${query.split.value === null ? `trimBoth(ifNull(${utm}, '')) = ''` : `${utm} = {value:String}`})`;
  const matching = !filter.cte
    ? ''
    : `AND (wallet, first_at) IN (
         SELECT assumeNotNull(wallet_address), ts FROM ${EVENT_ROWS}
          WHERE ${IN_RANGE} AND type = 'wallet_connected' AND wallet_address IS NOT NULL
            AND session_key IN (SELECT session_key FROM filtered_sessions))`;
  const returns = RETURN_EVENTS[query.returnBy];
  const periodOf = (expression: string) =>
    periodSql(
      query,
      expression,
      (a, b) => `intDiv(${a}, ${b})`,
      `toInt64(floor((${expression} - {from:Int64}) / {period:Int64}))`,
    );
  const cohort = `${
    filter.cte
      ? `${filter.cte},
  `
      : ''
  }firsts AS (
    SELECT wallet, min(first_connected) AS first_at
      FROM wallet_firsts WHERE project_id = {project:String}
     GROUP BY wallet
    HAVING first_at >= ${FROM} AND first_at < ${TO}
  ),
  cohort AS (
    SELECT wallet AS c_wallet, ${periodOf(ms('assumeNotNull(first_at)'))} AS c_cohort
      FROM firsts WHERE 1 ${split} ${matching}
  )`;
  const returnsCte = `returns AS (
         SELECT DISTINCT assumeNotNull(${returns.wallet}) AS r_wallet,
                ${periodOf(ms('ts'))} AS r_period
           FROM ${EVENT_ROWS}
          WHERE project_id = {project:String} AND ${returns.where}
            AND ts >= ${FROM} AND ts < fromUnixTimestamp64Milli({until:Int64}, 'UTC')
       )`;
  if (filter.cte) {
    // With filters, one query: ClickHouse computes a CTE again wherever it is named, and the cohort
    // (holding the filtered sessions) named by two queries found the sessions twice (ADR 086). Each cohort
    // wallet's return periods are joined to it; per cohort, its size and, per k, the wallets back.
    const rows = await clickhouse.rows(
      `WITH ${cohort},
       ${returnsCte},
       returned AS (SELECT r_wallet, groupArray(r_period) AS r_periods FROM returns GROUP BY r_wallet)
       SELECT c_cohort AS cohort, count() AS size,
              sumForEach(arrayMap(k -> toUInt64(has(r_periods, c_cohort + k)), range(1, {periods:Int64} + 1))) AS back
         FROM cohort LEFT JOIN returned ON r_wallet = c_wallet
        GROUP BY c_cohort`,
      params,
      SizeRow.extend({ back: z.array(count) }),
    );
    return cohortRows(
      query,
      rows,
      rows.flatMap(({ cohort, back }) =>
        back.flatMap((wallets, index) => (wallets > 0 ? [{ cohort, k: index + 1, wallets }] : [])),
      ),
    );
  }
  const [sizes, counted] = await Promise.all([
    clickhouse.rows(
      `WITH ${cohort} SELECT c_cohort AS cohort, count() AS size FROM cohort GROUP BY c_cohort`,
      params,
      SizeRow,
    ),
    clickhouse.rows(
      `WITH ${cohort},
       ${returnsCte}
       SELECT c_cohort AS cohort, r_period - c_cohort AS k, count() AS wallets
         FROM cohort INNER JOIN returns ON r_wallet = c_wallet
        WHERE r_period - c_cohort BETWEEN 1 AND {periods:Int64}
        GROUP BY c_cohort, k`,
      params,
      ReturnRow,
    ),
  ]);
  return cohortRows(query, sizes, counted);
}
