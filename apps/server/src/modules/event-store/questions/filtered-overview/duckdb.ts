import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { DEFAULT_TIME_ZONE } from '@polyflow/contracts/time-zone';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { sessionFilter, withCtes } from '../../duckdb/event-filter.ts';
import { type Connection, FROM, IN_RANGE, rangeParams, rowsOf, TO } from '../../duckdb/sql.ts';
import { longerTransactions, OUTCOME_COUNTS, outcomesCtes } from '../transaction-outcomes/duckdb.ts';
import { type FilteredOverview, FilteredOverviewRow, filteredOverviewOf } from './question.ts';

/** An event's day in the zone `$zone` (the stored time read as UTC), as activeDays' filtered question. */
const DAY = `CAST(timezone($zone, timezone('UTC', ts)) AS DATE)`;
const PREVIOUS_FROM = 'make_timestamp($previous_from::BIGINT * 1000)';
const PREVIOUS_TO = 'make_timestamp($previous_to::BIGINT * 1000)';
const IN_PREVIOUS = `project_id = $project AND ts >= ${PREVIOUS_FROM} AND ts < ${PREVIOUS_TO}`;

/**
 * The filtered overview (question.ts) in one query. The passing sessions of each period are found once
 * (DuckDB materializes a CTE read more than once) and the range's events of the passing sessions are read
 * once for the wallet tiles and the value-days; the transactions are those whose request's session
 * passes, read as transactionOutcomes reads them (its summaries by their request's session key, ADR 100).
 */
export async function filteredOverview(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  previousRange: TimeRange,
  timeZone: string = DEFAULT_TIME_ZONE,
  filters: AnalyticsFilters,
): Promise<FilteredOverview> {
  const current = await sessionFilter(connection, projectId, filters, 'filtered_sessions', {
    range,
    from: FROM,
    to: TO,
  });
  const previous = await sessionFilter(connection, projectId, filters, 'previous_sessions', {
    range: previousRange,
    from: PREVIOUS_FROM,
    to: PREVIOUS_TO,
  });
  const longer = await longerTransactions(connection, projectId, range);
  const [row] = await rowsOf(
    connection,
    `${withCtes(current.cte, previous.cte, outcomesCtes(longer, current))},
     passing AS MATERIALIZED (
       SELECT ${DAY} AS day, type, wallet_address, user_id FROM events WHERE ${IN_RANGE}${current.events}
     ),
     connected AS (
       SELECT DISTINCT wallet_address FROM passing
        WHERE type = 'wallet_connected' AND wallet_address IS NOT NULL
     ),
     outcome_counts AS (SELECT ${OUTCOME_COUNTS} FROM outcomes),
     wallets AS (
       SELECT count(*)::DOUBLE AS connected,
              count(*) FILTER (WHERE wallet_first_touches.first_seen >= ${FROM})::DOUBLE AS fresh
         FROM connected
         LEFT JOIN wallet_first_touches ON wallet_first_touches.project_id = $project
          AND wallet_first_touches.wallet_address = connected.wallet_address
     ),
     days AS (
       SELECT count(DISTINCT (day, wallet_address)) FILTER (WHERE wallet_address IS NOT NULL)::DOUBLE AS wallet_days,
              count(DISTINCT (day, user_id))::DOUBLE AS user_days
         FROM passing
     ),
     previous_days AS (
       SELECT count(DISTINCT (${DAY}, wallet_address)) FILTER (WHERE wallet_address IS NOT NULL)::DOUBLE AS previous_wallet_days
         FROM events
        WHERE ${IN_PREVIOUS}${previous.events}
     )
     SELECT * FROM outcome_counts, wallets, days, previous_days`,
    {
      ...rangeParams(projectId, range),
      previous_from: BigInt(previousRange.fromMs),
      previous_to: BigInt(previousRange.toMs),
      zone: timeZone,
      ...(longer?.params ?? {}),
      ...current.params,
      ...previous.params,
    },
    FilteredOverviewRow,
  );
  return filteredOverviewOf(row);
}
