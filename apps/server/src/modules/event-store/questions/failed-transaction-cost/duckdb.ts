import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { TX_STAGE_WINDOW_MS } from '../../domain.ts';
import { eventFilter, withCtes } from '../../duckdb/event-filter.ts';
import { type Connection, FROM, IN_RANGE, type Params, rangeParams, rowsOf, TO } from '../../duckdb/sql.ts';
import {
  HAS_SEVERAL_RECEIPTS,
  IS_SHORT,
  LATER_RECEIPT_IS_CONFIRMED,
  latestReceiptsOfEvents,
} from '../../duckdb/transaction-summaries.ts';
import { localDateColumn } from '../../local-days.ts';
import { count, numberOrNull, text, textOrNull } from '../../rows.ts';
import type { FailedTransactionCost } from '../../wallet-questions.ts';
import { type LongerTransactions, longerTransactions } from '../transaction-outcomes/duckdb.ts';
import { mergeChains, RefusalRow, result } from './question.ts';

/** DuckDB's one pass over the receipts: per day, chain, contract, function and kind, the fees as text. */
const GroupRow = z.object({
  day: text,
  chain_id: numberOrNull,
  tx_to: textOrNull,
  selector: textOrNull,
  tx_stage: text,
  receipts: count,
  fee: text,
});

/**
 * Each receipt hash's latest report logged in the range, with its fee in wei (docs/wallets.md): from
 * `transaction_summaries` for a transaction of one receipt hash, whose receipt is the later of its latest
 * `confirmed` and latest `reverted` one (ADR 073), when that one lies in the range; a transaction with a
 * receipt at or after the range's end may have an earlier report in it, and one of several receipt hashes
 * has several receipts, so those (few: the former none when the range runs to now) are asked of the events
 * by id.
 */
const receipts = (later: string, kept = '') => `receipts AS (
  SELECT confirmed_ts AS ts, confirmed_chain AS chain_id, NULL::VARCHAR AS tx_to, NULL::VARCHAR AS selector,
         'confirmed' AS tx_stage, confirmed_fee AS fee
    FROM transaction_summaries
   WHERE project_id = $project AND confirmed_ts >= ${FROM} AND confirmed_ts < ${TO} AND ${LATER_RECEIPT_IS_CONFIRMED}
     AND NOT coalesce(${HAS_SEVERAL_RECEIPTS}, false)${later ? ` AND NOT ${later}` : ''}${kept}
  UNION ALL
  SELECT reverted_ts, reverted_chain, reverted_to, reverted_selector, 'reverted', reverted_fee
    FROM transaction_summaries
   WHERE project_id = $project AND reverted_ts >= ${FROM} AND reverted_ts < ${TO} AND NOT ${LATER_RECEIPT_IS_CONFIRMED}
     AND NOT coalesce(${HAS_SEVERAL_RECEIPTS}, false)${later ? ` AND NOT ${later}` : ''}${kept}
  ${
    later
      ? `UNION ALL
  SELECT ts, chain_id, tx_to, selector, tx_stage, fee FROM (${latestReceiptsOfEvents(`${IN_RANGE} AND ${later}${kept}`)})`
      : ''
  }
)`;

const LaterRow = z.object({ tx_id: text });

/** The filtered question's one query: a receipts group (GroupRow) or a chain's refusals (`receipts`: failed). */
const PartRow = z.object({
  part: z.enum(['receipts', 'refusals']),
  day: textOrNull,
  chain_id: numberOrNull,
  tx_to: textOrNull,
  selector: textOrNull,
  tx_stage: textOrNull,
  receipts: count,
  fee: textOrNull,
});

/** The stage window before `from`, where a transaction with a stage in the range may have been requested. */
const WINDOW_FROM = `make_timestamp(($from::BIGINT - ${TX_STAGE_WINDOW_MS}) * 1000)`;

/**
 * `filtered_transactions` (after `filtered_sessions`): the transactions whose request (first stage by
 * (time, id), from one stage window before `from` up to `to`) was logged in a passing session, for the
 * receipts and refusals logged in [from, to). Those whose stages lie less than the stage window apart
 * from `transaction_summaries` (its request's session key, ADR 100: a stage in the range means a request
 * after `from` less the window, so the summaries' request is the one the stages give); the `longer` ones
 * by grouping their stages in that window, as all of them were before (ADR 109).
 */
const filteredTransactionsCte = (longer: LongerTransactions) => `filtered_transactions AS (
       SELECT tx_id FROM transaction_summaries
        WHERE project_id = $project AND requested_at >= ${WINDOW_FROM} AND requested_at < ${TO} AND ${IS_SHORT}
          AND session_key IN (SELECT session_key FROM filtered_sessions)${
            longer
              ? `
       UNION ALL
       SELECT tx_id FROM events
        WHERE project_id = $project AND type = 'tx' AND tx_id IS NOT NULL AND ${longer.only}
          AND ts >= ${WINDOW_FROM} AND ts < ${TO}
        GROUP BY tx_id
       HAVING arg_min(session_key, (ts, id)) IN (SELECT session_key FROM filtered_sessions)`
              : ''
          }
     )`;

const KEPT = ' AND tx_id IN (SELECT tx_id FROM filtered_transactions)';

export async function failedTransactionCost(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  filters?: AnalyticsFilters,
  timeZone?: string,
): Promise<FailedTransactionCost> {
  const params = rangeParams(projectId, range);
  const filter = await eventFilter(connection, projectId, range, filters);
  // Days of the project's zone: the local day's number, made a date below (docs/wallets.md).
  const local = localDateColumn(range, timeZone, 'epoch_ms(ts)', (a, b) => `${a} // ${b}`);
  // One pass over the receipts: per day, chain, contract, function and kind; the chains' sums from them.
  const later = await rowsOf(
    connection,
    `SELECT tx_id FROM transaction_summaries
      WHERE project_id = $project AND requested_at < ${TO}
        AND (confirmed_ts >= ${TO} OR reverted_ts >= ${TO} OR (${HAS_SEVERAL_RECEIPTS} AND last_ts >= ${FROM}))`,
    { project: projectId, from: BigInt(range.fromMs), to: BigInt(range.toMs) },
    LaterRow,
  );
  const ids: Params = {};
  later.forEach((row, index) => {
    ids[`later_${index}`] = row.tx_id;
  });
  const isLater =
    later.length === 0
      ? ''
      : `tx_id IN (${Object.keys(ids)
          .map((name) => `$${name}`)
          .join(', ')})`;
  const day = local ? `(${local.sql})::VARCHAR` : "strftime(ts, '%Y-%m-%d')";
  const refusalsSql = (kept: string) => `SELECT chain_id AS chain, count(DISTINCT tx_id) AS failed
       FROM events
      WHERE ${IN_RANGE} AND type = 'tx' AND tx_id IS NOT NULL AND tx_stage = 'failed'${kept}
      GROUP BY chain_id`;
  let groups: z.infer<typeof GroupRow>[];
  let refusals: z.infer<typeof RefusalRow>[];
  if (filter.cte) {
    const longer = await longerTransactions(connection, projectId, range);
    // One query, so that the passing sessions and their transactions are found once (DuckDB materializes
    // a CTE read twice) for the receipts and the refusals (ADR 086).
    const parts = await rowsOf(
      connection,
      `${withCtes(filter.cte, filteredTransactionsCte(longer), receipts(isLater, KEPT))},
       refusals AS (${refusalsSql(KEPT)})
       SELECT 'receipts' AS part, ${day} AS day, chain_id, tx_to, selector, tx_stage, count(*) AS receipts,
              sum(fee)::VARCHAR AS fee
         FROM receipts
        GROUP BY ALL
       UNION ALL
       SELECT 'refusals', NULL, chain, NULL, NULL, NULL, failed, NULL FROM refusals`,
      { ...params, ...ids, ...(longer?.params ?? {}), ...filter.params },
      PartRow,
    );
    groups = parts.flatMap(({ part, day, tx_stage, fee, ...row }) =>
      part === 'receipts' ? [{ ...row, day: day ?? '', tx_stage: tx_stage ?? '', fee: fee ?? '0' }] : [],
    );
    refusals = parts.flatMap((row) =>
      row.part === 'refusals' ? [{ chain: row.chain_id, failed: row.receipts }] : [],
    );
  } else {
    groups = await rowsOf(
      connection,
      `WITH ${receipts(isLater)}
       SELECT ${day} AS day, chain_id, tx_to, selector, tx_stage, count(*) AS receipts,
              sum(fee)::VARCHAR AS fee
         FROM receipts
        GROUP BY ALL`,
      { ...params, ...ids },
      GroupRow,
    );
    refusals = await rowsOf(connection, refusalsSql(''), params, RefusalRow);
  }
  const chains = new Map<number | null, { paid: bigint; burned: bigint; reverted: number }>();
  for (const row of groups) {
    const chainId = row.chain_id;
    const chain = chains.get(chainId) ?? { paid: 0n, burned: 0n, reverted: 0 };
    const fee = BigInt(row.fee);
    chain.paid += fee;
    if (row.tx_stage === 'reverted') {
      chain.burned += fee;
      chain.reverted += row.receipts;
    }
    chains.set(chainId, chain);
  }
  const rows = groups.filter((row) => row.tx_stage === 'reverted');
  return result(
    mergeChains(
      [...chains].map(([chainId, chain]) => ({
        chainId,
        paid: chain.paid.toString(),
        burned: chain.burned.toString(),
        reverted: chain.reverted,
      })),
      refusals.map((row) => ({ chainId: row.chain, failed: row.failed })),
    ),
    rows.map((row) => ({
      day: local ? local.dateOf(row.day) : row.day,
      chainId: row.chain_id,
      contract: row.tx_to,
      selector: row.selector,
      reverted: row.receipts,
      gasBurnedWei: row.fee,
    })),
  );
}
