import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { DEFAULT_TIME_ZONE } from '@polyflow/contracts/time-zone';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { sessionFilter, withCtes } from '../../clickhouse/event-filter.ts';
import { FROM, IN_RANGE, rangeParams, TO } from '../../clickhouse/sql.ts';
import { OUTCOME, transactionFolds } from '../../clickhouse/transaction-days.ts';
import { walletsSeenBefore } from '../../clickhouse/wallet-firsts.ts';
import { TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { type FilteredOverview, FilteredOverviewRow, filteredOverviewOf } from './question.ts';

const IN_PREVIOUS = `project_id = {project:String} AND ts >= fromUnixTimestamp64Milli({previous_from:Int64}, 'UTC') AND ts < fromUnixTimestamp64Milli({previous_to:Int64}, 'UTC')`;
const CONNECTION = `type = 'wallet_connected' AND wallet_address IS NOT NULL`;

/**
 * The filtered overview (question.ts) in one query. ClickHouse computes a CTE again wherever it is named,
 * so the range's events of the passing sessions are read by one scan that answers the wallet tiles and
 * the value-days together (distinct counts: no FINAL), beside the transactions (transactionsCte, whose
 * request's session passes) and the previous period's wallet-days; the current period's sessions are
 * found twice, the previous period's once (the three questions found them four times).
 */
export async function filteredOverview(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  previousRange: TimeRange,
  timeZone: string = DEFAULT_TIME_ZONE,
  filters: AnalyticsFilters,
): Promise<FilteredOverview> {
  const current = sessionFilter(filters, 'filtered_sessions', undefined, range);
  const previous = sessionFilter(
    filters,
    'previous_sessions',
    { from: 'previous_from', to: 'previous_to' },
    previousRange,
  );
  // The transactions requested in the range in a passing session (their stages within one stage window
  // beyond each end), with their outcomes as the unfiltered transaction outcomes read them.
  const folds = transactionFolds({
    fromMs: range.fromMs - TX_STAGE_WINDOW_MS,
    toMs: range.toMs + TX_STAGE_WINDOW_MS,
  });
  const transactions = `transactions AS (
       ${folds.sql}
       HAVING requested_at >= ${FROM} AND requested_at < ${TO} AND t_request_session ${current.inSessions}
     )`;
  const [row] = await clickhouse.rows(
    `${withCtes(current.cte, previous.cte, transactions)}
     SELECT outcomes.*, passing.*, previous_days.*
       FROM (SELECT count() AS total,
                    countIf(t_is_submitted) AS submitted,
                    countIf(t_outcome IN (${OUTCOME.reverted}, ${OUTCOME.failed})) AS failed,
                    countIf(t_is_submitted OR t_outcome = ${OUTCOME.failed}) AS attempted
               FROM transactions) AS outcomes
      CROSS JOIN (
             SELECT uniqExactIf(wallet_address, ${CONNECTION}) AS connected,
                    uniqExactIf(wallet_address, ${CONNECTION}
                      AND assumeNotNull(wallet_address) NOT IN (${walletsSeenBefore(FROM)})) AS fresh,
                    uniqExactIf(toDate32(ts, {zone:String}), wallet_address, wallet_address IS NOT NULL) AS wallet_days,
                    uniqExact(toDate32(ts, {zone:String}), user_id) AS user_days
               FROM events
              WHERE ${IN_RANGE}${current.events}) AS passing
      CROSS JOIN (
             SELECT uniqExactIf(toDate32(ts, {zone:String}), wallet_address, wallet_address IS NOT NULL) AS previous_wallet_days
               FROM events
              WHERE ${IN_PREVIOUS}${previous.events}) AS previous_days`,
    {
      ...rangeParams(projectId, range),
      previous_from: previousRange.fromMs,
      previous_to: previousRange.toMs,
      zone: timeZone,
      ...current.params,
      ...folds.params,
    },
    FilteredOverviewRow,
  );
  return filteredOverviewOf(row);
}
