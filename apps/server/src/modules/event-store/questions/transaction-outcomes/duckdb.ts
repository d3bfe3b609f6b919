import type { BucketedRange, TimeRange } from '../../../../reading/time-range.ts';
import { TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { IS_SHORT } from '../../duckdb/transaction-summaries.ts';
import { bucketMap } from '../../rows.ts';
import { OutcomesRow, outcomesOf } from './question.ts';

/** The transactions longer than the stage window: an adapter's own lookup, not the question's answer. */
const LongerRow = z.object({ tx_id: z.string() });

import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import { type EventFilter, eventFilter, NO_FILTER, withCtes } from '../../duckdb/event-filter.ts';
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

/** A bucket's counts over rows with `status` and `is_submitted`. */
export const OUTCOME_COUNTS = `count(*)::DOUBLE AS total,
            count(*) FILTER (WHERE is_submitted)::DOUBLE AS submitted,
            count(*) FILTER (WHERE status IN ('reverted', 'failed'))::DOUBLE AS failed,
            count(*) FILTER (WHERE is_submitted OR status = 'failed')::DOUBLE AS attempted`;

/** The transactions around a range longer than the stage window, as `$tx_<n>` parameters and a stage condition. */
export type LongerTransactions = { only: string; params: Params } | null;

/**
 * The transactions whose stages lie at least the stage window apart and that the range's scan could see:
 * asked of the events by id (transactionsCte), since the scan around the range may miss some of their
 * stages. An adapter's own lookup, not the question's answer; null when there is none.
 */
export async function longerTransactions(
  connection: Connection,
  projectId: string,
  range: TimeRange,
): Promise<LongerTransactions> {
  const longer = await rowsOf(
    connection,
    `SELECT tx_id FROM transaction_summaries
      WHERE project_id = $project AND NOT (${IS_SHORT})
        AND requested_at < make_timestamp(($to::BIGINT + ${TX_STAGE_WINDOW_MS}) * 1000)
        AND last_ts >= make_timestamp(($from::BIGINT - ${TX_STAGE_WINDOW_MS}) * 1000)`,
    rangeParams(projectId, range),
    LongerRow,
  );
  if (longer.length === 0) return null;
  const params: Params = {};
  longer.forEach((row, index) => {
    params[`tx_${index}`] = row.tx_id;
  });
  const names = Object.keys(params).map((name) => `$${name}`);
  return { only: `tx_id IN (${names.join(', ')})`, params };
}

/**
 * The CTEs (after WITH) ending in `outcomes` (requested_at, status, is_submitted): the transactions
 * requested in [from, to), those of a passing session with `filter` (its CTE named before). The short ones
 * are read from `transaction_summaries`, which gives the answer of the stages themselves for every
 * transaction whose stages lie less than the stage window apart; `longer` ones are asked of the events.
 */
export function outcomesCtes(longer: LongerTransactions, filter: EventFilter = NO_FILTER): string {
  const fromEvents = longer
    ? `${transactionsCte(['status', 'is_submitted'], false, longer.only, filter.transactions)},\n     `
    : '';
  return `${fromEvents}outcomes AS (
       SELECT requested_at, status, is_submitted
         FROM transaction_summaries
        WHERE project_id = $project AND requested_at >= ${FROM} AND requested_at < ${TO} AND ${IS_SHORT}${filter.summaries}
       ${longer ? 'UNION ALL\n       SELECT requested_at, status, is_submitted FROM transactions' : ''}
     )`;
}

/**
 * Transactions per bucket of their request time, by outcome (outcomesCtes: the derived
 * `transaction_summaries`, ADR 025; the stage scan around the range, docs/analytics.md, "Stages logged
 * more than one day away from the range are not looked at", sees all of a short transaction's stages or
 * none in the range). With filters, the summaries' request session key keeps those of the passing
 * sessions (ADR 100).
 */
export async function transactionOutcomes(
  connection: Connection,
  projectId: string,
  range: BucketedRange,
  filters?: AnalyticsFilters,
) {
  const filter = await eventFilter(connection, projectId, range, filters);
  const longer = await longerTransactions(connection, projectId, range);
  const rows = await rowsOf(
    connection,
    `${withCtes(filter.cte, outcomesCtes(longer, filter))}
     SELECT ${bucketOf('requested_at', range)} AS bucket, ${OUTCOME_COUNTS}
       FROM outcomes
      GROUP BY bucket`,
    { ...bucketParams(projectId, range), ...(longer?.params ?? {}), ...filter.params },
    OutcomesRow,
  );
  return bucketMap(rows, outcomesOf);
}
