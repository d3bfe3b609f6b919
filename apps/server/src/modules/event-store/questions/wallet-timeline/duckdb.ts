import { z } from 'zod';
import { keyOf } from '../../duckdb/schema.ts';
import { type Connection, type Params, rowsOf } from '../../duckdb/sql.ts';
import { count } from '../../rows.ts';
import type { TimelinePage, WalletTimeline } from '../../wallet-questions.ts';
import { LatestRow, mergeSpans, olderOf, TIMELINE_EVENTS, TimelineRow, timelineEventOf } from './question.ts';

const SpanRow = z.object({ session_key: z.coerce.string(), first_ms: count, last_ms: count });
/** A session of the page: its latest time carrying the wallet and its first (`wallet_sessions`). */
const ShownRow = LatestRow.extend({ first_ms: count });

/**
 * A page of the wallet's sessions from its `wallet_sessions` rows, each session's span (first and last
 * event of any kind) from `keyed_sessions`, then their events by a list of session ids within those spans: the
 * spans let the scan skip the row groups between them (events lie in time order), the ids keep only the
 * sessions' own events (ADR 073, ADR 084), found by their keys first (ADR 102).
 */
export async function walletTimeline(
  connection: Connection,
  projectId: string,
  wallet: string,
  page: TimelinePage,
): Promise<WalletTimeline> {
  const after = page.after
    ? 'AND (epoch_ms(last_ts) < $after_ms OR (epoch_ms(last_ts) = $after_ms AND session_id > $after_session))'
    : '';
  const latest = await rowsOf(
    connection,
    // MATERIALIZED: a LIMIT over `wallet_sessions` itself is planned as a late materialization, whose
    // join back by row id read the whole table (3 M rows on the 10 M bench store) for ten rows.
    `WITH mine AS MATERIALIZED (
       SELECT session_id, epoch_ms(last_ts) AS last_ms, epoch_ms(first_ts) AS first_ms FROM wallet_sessions
        WHERE project_id = $project AND wallet_address = $wallet ${after})
     SELECT * FROM mine ORDER BY last_ms DESC, session_id LIMIT $sessions`,
    {
      project: projectId,
      wallet,
      sessions: BigInt(page.sessions + 1),
      ...(page.after && { after_ms: BigInt(page.after.lastMs), after_session: page.after.sessionId }),
    },
    ShownRow,
  );
  const shown = latest.slice(0, page.sessions);
  if (shown.length === 0) return { events: [], older: null };
  const params: Params = { project: projectId };
  shown.forEach((row, index) => {
    params[`s_${index}`] = row.session_id;
  });
  const ids = shown.map((_row, index) => `$s_${index}`).join(', ');
  // The sessions' keys first (ADR 093): a number compared per row, the text only where a key matches.
  // As `list_contains`, not `IN`: DuckDB turns an IN list of ten into a join after the scan, which
  // then reads every column of every row in the spans; a list_contains is a filter in the scan (ADR 148).
  const keys = shown.map((_row, index) => keyOf(`$s_${index}`)).join(', ');
  // Each session's span from its `keyed_sessions` row (ADR 109), by key: a span holds the wallet's own
  // times in that session, so only the rows near them are read.
  const spans = await rowsOf(
    connection,
    `SELECT session_key, epoch_ms(first_ts) AS first_ms, epoch_ms(last_ts) AS last_ms
       FROM keyed_sessions
      WHERE project_id = $project AND list_contains([${keys}], session_key)
        AND first_ts <= make_timestamp($span_first::BIGINT * 1000) AND last_ts >= make_timestamp($span_last::BIGINT * 1000)`,
    {
      ...params,
      span_first: BigInt(Math.max(...shown.map((row) => row.first_ms))),
      span_last: BigInt(Math.min(...shown.map((row) => row.last_ms))),
    },
    SpanRow,
  );
  // A session without its row (never, as `sessions` is kept with every load) is read without a span.
  const merged = mergeSpans(spans.map((span) => ({ fromMs: span.first_ms, toMs: span.last_ms + 1 })));
  const at = (name: string) => `make_timestamp($${name}::BIGINT * 1000)`;
  // The spans' envelope as a plain range besides their OR: DuckDB prunes row groups by a range on `ts`,
  // not by an OR of ranges (which it checks row by row), ADR 148.
  const within =
    spans.length === shown.length
      ? `AND ts >= ${at('f_0')} AND ts < ${at(`t_${merged.length - 1}`)} AND (${merged
          .map((span, index) => {
            params[`f_${index}`] = BigInt(span.fromMs);
            params[`t_${index}`] = BigInt(span.toMs);
            return `(ts >= ${at(`f_${index}`)} AND ts < ${at(`t_${index}`)})`;
          })
          .join(' OR ')})`
      : '';
  const order = shown.map((_row, index) => `WHEN $s_${index} THEN ${index}`).join(' ');
  const rows = await rowsOf(
    connection,
    `SELECT id, session_id, epoch_ms(ts) AS time_ms, type, event_name, path, wallet_address, wallet_provider,
            chain_id, tx_id, tx_stage, tx_hash, tx_to, selector, gas_used::VARCHAR AS gas_used_text,
            effective_gas_price::VARCHAR AS effective_gas_price_text, sig_stage, sig_method, error_source,
            error_message, error_code, rpc_method, incident_id, gas_balance::VARCHAR AS gas_balance_text,
            wallet_nonce::VARCHAR AS wallet_nonce_text
       FROM events
      WHERE project_id = $project AND list_contains([${keys}], session_key)
        AND list_contains([${ids}], session_id) ${within}
      ORDER BY CASE session_id ${order} END, ts, id
      LIMIT ${TIMELINE_EVENTS}`,
    params,
    TimelineRow,
  );
  const events = rows.map(timelineEventOf);
  return { events, older: olderOf(latest, page.sessions, events) };
}
