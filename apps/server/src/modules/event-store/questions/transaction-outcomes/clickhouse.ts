import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import type { ClickHouse } from '../../clickhouse/client.ts';
import { eventFilter, withCtes } from '../../clickhouse/event-filter.ts';
import { bucketOf, bucketParams, FROM, TO, transactionsCte } from '../../clickhouse/sql.ts';
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
 * 045).
 */
export async function transactionOutcomes(
  clickhouse: ClickHouse,
  projectId: string,
  range: BucketedRange,
  filters?: AnalyticsFilters,
) {
  const filter = eventFilter(filters, range);
  if (filter.cte) {
    // `transaction_days` keeps no session: the filtered question builds each transaction from the events
    // (transactionsCte), keeping those whose request's session matches (ADR 074).
    const rows = await clickhouse.rows(
      `${withCtes(filter.cte, transactionsCte(['status', 'is_submitted'], false, filter.transactions))}
       SELECT ${bucketOf('requested_at', range)} AS bucket,
              count() AS total,
              countIf(t_is_submitted) AS submitted,
              countIf(t_status IN ('reverted', 'failed')) AS failed,
              countIf(t_is_submitted OR t_status = 'failed') AS attempted
         FROM transactions
        GROUP BY bucket`,
      { ...bucketParams(projectId, range), ...filter.params },
      OutcomesRow,
    );
    return bucketMap(rows, outcomesOf);
  }
  const window = { fromMs: range.fromMs - TX_STAGE_WINDOW_MS, toMs: range.toMs + TX_STAGE_WINDOW_MS };
  const folds = transactionFolds(window, 'stages_', { withRequestSession: false });
  const rows = await clickhouse.rows(
    `WITH transactions AS (
       ${folds.sql}
       HAVING requested_at >= ${FROM} AND requested_at < ${TO}
     )
     SELECT ${bucketOf('requested_at', range)} AS bucket,
            count() AS total,
            countIf(t_is_submitted) AS submitted,
            countIf(t_outcome IN (${OUTCOME.reverted}, ${OUTCOME.failed})) AS failed,
            countIf(t_is_submitted OR t_outcome = ${OUTCOME.failed}) AS attempted
       FROM transactions
      GROUP BY bucket`,
    { ...bucketParams(projectId, range), ...folds.params },
    OutcomesRow,
  );
  return bucketMap(rows, outcomesOf);
}
