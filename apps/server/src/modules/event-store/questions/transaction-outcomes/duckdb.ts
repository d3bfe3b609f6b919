import type { BucketedRange } from '../../../../reading/time-range.ts';
import { TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { bucketMap } from '../../rows.ts';
import { OutcomesRow, outcomesOf } from './question.ts';

/** The transactions longer than the stage window: an adapter's own lookup, not the question's answer. */
const LongerRow = z.object({ tx_id: z.string() });

import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import {
  bucketOf,
  bucketParams,
  type Connection,
  FROM,
  type Params,
  rangeParams,
  rowsOf,
  TO,
  transactionsCte,
} from '../../duckdb/sql.ts';

/**
 * A transaction whose stages lie less than the stage window apart: all of them are seen from its range.
 * In microseconds: adding an interval to a timestamp took 14 ms over the largest project's 74,000 rows.
 */
const IS_SHORT = `epoch_us(last_ts) < epoch_us(requested_at) + ${TX_STAGE_WINDOW_MS * 1000}`;

/** A bucket's counts over rows with `status` and `is_submitted`. */
export const OUTCOME_COUNTS = `count(*)::DOUBLE AS total,
            count(*) FILTER (WHERE is_submitted)::DOUBLE AS submitted,
            count(*) FILTER (WHERE status IN ('reverted', 'failed'))::DOUBLE AS failed,
            count(*) FILTER (WHERE is_submitted OR status = 'failed')::DOUBLE AS attempted`;

/**
 * Transactions per bucket of their request time, by outcome. Read from the derived
 * `transaction_summaries` (one row per transaction, ADR 025), which gives the answer of the stages
 * themselves for every transaction whose stages lie less than the stage window apart: the scan of the
 * events around the range (docs/analytics.md, "Stages logged more than one day away from the range are
 * not looked at") sees all of them, or none in the range. The rare longer ones are asked of the events,
 * by id, as transactionsCte defines them.
 */
export async function transactionOutcomes(
  connection: Connection,
  projectId: string,
  range: BucketedRange,
  filters?: AnalyticsFilters,
) {
  const filter = eventFilter(filters);
  if (filter.cte) {
    // `transaction_summaries` keeps no session: the filtered question asks the events (ADR 074).
    const rows = await rowsOf(
      connection,
      `${withCtes(filter.cte, transactionsCte(['status', 'is_submitted'], false, '', filter.transactions))}
       SELECT ${bucketOf('requested_at', range)} AS bucket, ${OUTCOME_COUNTS}
         FROM transactions
        GROUP BY bucket`,
      { ...bucketParams(projectId, range), ...filter.params },
      OutcomesRow,
    );
    return bucketMap(rows, outcomesOf);
  }
  const params = bucketParams(projectId, range);
  const longer = await rowsOf(
    connection,
    `SELECT tx_id FROM transaction_summaries
      WHERE project_id = $project AND NOT (${IS_SHORT})
        AND requested_at < make_timestamp(($to::BIGINT + ${TX_STAGE_WINDOW_MS}) * 1000)
        AND last_ts >= make_timestamp(($from::BIGINT - ${TX_STAGE_WINDOW_MS}) * 1000)`,
    rangeParams(projectId, range),
    LongerRow,
  );
  const ids: Params = {};
  longer.forEach((row, index) => {
    ids[`tx_${index}`] = row.tx_id;
  });
  const fromEvents =
    longer.length === 0
      ? ''
      : `UNION ALL
         SELECT requested_at, status, is_submitted FROM transactions`;
  const only = `tx_id IN (${Object.keys(ids)
    .map((name) => `$${name}`)
    .join(', ')})`;
  const rows = await rowsOf(
    connection,
    `WITH ${longer.length === 0 ? '' : `${transactionsCte(['status', 'is_submitted'], false, only)},`}
     outcomes AS (
       SELECT requested_at, status, is_submitted
         FROM transaction_summaries
        WHERE project_id = $project AND requested_at >= ${FROM} AND requested_at < ${TO} AND ${IS_SHORT}
       ${fromEvents}
     )
     SELECT ${bucketOf('requested_at', range)} AS bucket, ${OUTCOME_COUNTS}
       FROM outcomes
      GROUP BY bucket`,
    { ...params, ...ids },
    OutcomesRow,
  );
  return bucketMap(rows, outcomesOf);
}
