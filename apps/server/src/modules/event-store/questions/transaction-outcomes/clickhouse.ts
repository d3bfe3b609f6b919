import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
import { bucketOf, bucketParams, FROM, TO } from '../../clickhouse/sql.ts';
import { OUTCOME, transactionFolds } from '../../clickhouse/transaction-days.ts';
import { TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { bucketMap } from '../../rows.ts';
import { OutcomesRow, outcomesOf } from './question.ts';

/**
 * Transactions per bucket of their request time, by outcome: each transaction (tx_id) first requested in
 * [from, to), built from its stages within one stage window beyond each end (as `transactionsCte`,
 * sql.ts). The window's whole UTC days come from `transaction_days`, its partial days from the stages
 * among `events`, folded per transaction (docs/decisions/033): the first stage's time, whether one was
 * submitted, and the outcome of the latest stage, read from the largest stage key (a plain maximum, ADR
 * 045). Filtered, a transaction counts when its request's session passes: its request key's session
 * (`transactionFolds`' `t_request_session`, ADR 111) among the passing sessions' keys.
 */
export async function transactionOutcomes(
  clickhouse: ClickHouse,
  projectId: string,
  range: BucketedRange,
  filters?: AnalyticsFilters,
) {
  const filter = eventFilter(filters, range);
  const window = { fromMs: range.fromMs - TX_STAGE_WINDOW_MS, toMs: range.toMs + TX_STAGE_WINDOW_MS };
  const folds = transactionFolds(window, 'stages_', { withRequestSession: Boolean(filter.cte) });
  const transactions = `transactions AS (
       ${folds.sql}
       HAVING requested_at >= ${FROM} AND requested_at < ${TO}${
         filter.cte ? ` AND t_request_session ${filter.inSessions}` : ''
       }
     )`;
  const rows = await clickhouse.rows(
    `${withCtes(filter.cte, transactions)}
     SELECT ${bucketOf('requested_at', range)} AS bucket,
            count() AS total,
            countIf(t_is_submitted) AS submitted,
            countIf(t_outcome IN (${OUTCOME.reverted}, ${OUTCOME.failed})) AS failed,
            countIf(t_is_submitted OR t_outcome = ${OUTCOME.failed}) AS attempted
       FROM transactions
      GROUP BY bucket`,
    { ...bucketParams(projectId, range), ...filter.params, ...folds.params },
    OutcomesRow,
  );
  return bucketMap(rows, outcomesOf);
}
