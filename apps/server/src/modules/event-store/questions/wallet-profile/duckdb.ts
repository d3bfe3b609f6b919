import { z } from 'zod';
import { keyOf } from '../../duckdb/schema.ts';
import { type Connection, rowsOf } from '../../duckdb/sql.ts';
import {
  HAS_SEVERAL_RECEIPTS,
  LATER_RECEIPT_IS_CONFIRMED,
  latestReceiptsOfEvents,
} from '../../duckdb/transaction-summaries.ts';
import { count } from '../../rows.ts';
import type { UtcDay, WalletProfile } from '../../wallet-questions.ts';
import { DayRow, FactsRow, GasRow, profileOf, TouchRow } from './question.ts';

/** The facts and the wallet's latest time in its first session, a bound of that session's span. */
const KeyedFactsRow = FactsRow.extend({ first_session_last_ms: z.coerce.number().nullable() });
/** A session's first and last event time (`keyed_sessions`). */
const SpanRow = z.object({ from_ms: count, to_ms: count });

/**
 * The wallet's facts from its `wallet_sessions` rows, its transactions from `transaction_summaries` (by
 * sender), its first session's landing from that session's events (ADR 073), found by the session's key
 * first (a number, cheaper to compare than the text id, which is still compared: ADR 093, ADR 096) within
 * the session's span (`keyed_sessions`, ADR 109).
 * Its active days from `activeDaysFrom` on: `wallet_active_days` is sorted by day, so the scan for one
 * wallet skips the older row groups; its first day is the day of its first event carrying it as the
 * connected wallet (`wallet_first_touches`, by its key; ADR 102).
 */
export async function walletProfile(
  connection: Connection,
  projectId: string,
  wallet: string,
  activeDaysFrom?: UtcDay,
): Promise<WalletProfile | null> {
  const params = { project: projectId, wallet };
  const [facts] = await rowsOf(
    connection,
    `SELECT count(*) AS events, epoch_ms(min(first_ts)) AS first_ms, epoch_ms(max(last_ts)) AS last_ms,
            epoch_ms(min(connected_ts)) AS connected_ms,
            coalesce(arg_min(session_id, (first_ts, first_id)), '') AS first_session,
            epoch_ms(arg_min(last_ts, (first_ts, first_id))) AS first_session_last_ms,
            coalesce(list_distinct(flatten(list(countries))), []) AS countries, coalesce(list_distinct(flatten(list(browsers))), []) AS browsers,
            coalesce(list_distinct(flatten(list(providers))), []) AS providers, coalesce(list_distinct(flatten(list(chains))), []) AS chains,
            count(*) AS sessions
       FROM wallet_sessions WHERE project_id = $project AND wallet_address = $wallet`,
    params,
    KeyedFactsRow,
  );
  if (!facts || facts.events === 0) return null;
  // The first session's span, from its `keyed_sessions` row (ADR 109), found near the wallet's own times
  // in it (the span holds them): its events are then read from those row groups alone.
  const [span] = await rowsOf(
    connection,
    `SELECT epoch_ms(first_ts) AS from_ms, epoch_ms(last_ts) AS to_ms FROM keyed_sessions
      WHERE project_id = $project AND session_key = ${keyOf('$session')}
        AND first_ts <= make_timestamp($first_ms::BIGINT * 1000) AND last_ts >= make_timestamp($last_ms::BIGINT * 1000)`,
    {
      project: projectId,
      session: facts.first_session,
      first_ms: BigInt(facts.first_ms),
      last_ms: BigInt(facts.first_session_last_ms ?? facts.first_ms),
    },
    SpanRow,
  );
  const within = span
    ? ' AND ts >= make_timestamp($from_ms::BIGINT * 1000) AND ts <= make_timestamp($to_ms::BIGINT * 1000)'
    : '';
  const [touch] = await rowsOf(
    connection,
    `SELECT arg_min(utm_source, (ts, id)) AS source, arg_min(utm_medium, (ts, id)) AS medium,
            arg_min(utm_campaign, (ts, id)) AS campaign,
            arg_min(referrer, (ts, id)) FILTER (WHERE type = 'page_view') AS referrer,
            arg_min(path, (ts, id)) FILTER (WHERE type = 'page_view') AS landing_path
       FROM events
      WHERE project_id = $project AND session_key = ${keyOf('$session')} AND session_id = $session${within}`,
    {
      project: projectId,
      session: facts.first_session,
      ...(span && { from_ms: BigInt(span.from_ms), to_ms: BigInt(span.to_ms) }),
    },
    TouchRow,
  );
  // Gas per chain of the wallet's transactions: each one's receipt from its row when its receipts have one
  // hash; those with several (rare) apart, from their events, then added to their chain's figures.
  const single = await rowsOf(
    connection,
    `SELECT chain_id AS chain,
            coalesce(sum(CASE WHEN ${LATER_RECEIPT_IS_CONFIRMED} THEN confirmed_fee ELSE reverted_fee END)
              FILTER (WHERE NOT coalesce(${HAS_SEVERAL_RECEIPTS}, false)), 0)::VARCHAR AS paid,
            coalesce(sum(reverted_fee)
              FILTER (WHERE NOT ${LATER_RECEIPT_IS_CONFIRMED} AND NOT coalesce(${HAS_SEVERAL_RECEIPTS}, false)), 0)::VARCHAR AS burned,
            count(*) FILTER (WHERE status = 'reverted') AS reverted,
            count(*) FILTER (WHERE status = 'failed') AS failed, count(*) AS transactions,
            count(*) FILTER (WHERE ${HAS_SEVERAL_RECEIPTS}) AS several
       FROM transaction_summaries
      WHERE project_id = $project AND sender = $wallet
      GROUP BY chain_id`,
    params,
    GasRow.extend({ several: count }),
  );
  const gas = single.some((row) => row.several > 0)
    ? await withSeveralReceipts(connection, params, single)
    : single;
  const days = await rowsOf(
    connection,
    activeDaysFrom
      ? `SELECT strftime(day, '%Y-%m-%d') AS day FROM (
           SELECT day FROM wallet_active_days
            WHERE project_id = $project AND wallet_address = $wallet AND day >= $days_from::DATE
           UNION
           SELECT first_seen::DATE AS day FROM wallet_first_touches
            WHERE project_id = $project AND wallet_address = $wallet
         ) ORDER BY day`
      : `SELECT strftime(day, '%Y-%m-%d') AS day FROM wallet_active_days
          WHERE project_id = $project AND wallet_address = $wallet ORDER BY day`,
    activeDaysFrom ? { ...params, days_from: activeDaysFrom } : params,
    DayRow,
  );
  return profileOf(facts, touch, gas, days);
}

const SeveralRow = z.object({ chain: z.coerce.number().nullable(), paid: z.string(), burned: z.string() });

/**
 * The gas rows with the fees of the wallet's transactions of several receipt hashes added to their chains:
 * each receipt hash at its latest report, from the events of those transactions' spans.
 */
async function withSeveralReceipts(
  connection: Connection,
  params: { project: string; wallet: string },
  rows: readonly z.infer<typeof GasRow>[],
): Promise<z.infer<typeof GasRow>[]> {
  const several = await rowsOf(
    connection,
    `WITH several AS (
       SELECT tx_id, chain_id, requested_at, last_ts FROM transaction_summaries
        WHERE project_id = $project AND sender = $wallet AND ${HAS_SEVERAL_RECEIPTS}
     ),
     receipts AS (${latestReceiptsOfEvents(
       `project_id = $project AND tx_id IN (SELECT tx_id FROM several)
        AND ts >= (SELECT min(requested_at) FROM several) AND ts <= (SELECT max(last_ts) FROM several)`,
     )})
     SELECT s.chain_id AS chain, sum(r.fee)::VARCHAR AS paid,
            coalesce(sum(r.fee) FILTER (WHERE r.tx_stage = 'reverted'), 0)::VARCHAR AS burned
       FROM receipts AS r JOIN several AS s USING (tx_id)
      GROUP BY s.chain_id`,
    params,
    SeveralRow,
  );
  return rows.map((row) => {
    const added = several.find((other) => other.chain === row.chain);
    return added
      ? {
          ...row,
          paid: (BigInt(row.paid) + BigInt(added.paid)).toString(),
          burned: (BigInt(row.burned) + BigInt(added.burned)).toString(),
        }
      : row;
  });
}
