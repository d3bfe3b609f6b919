import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { EVENT_ROWS, ms } from '../../clickhouse/sql.ts';
import { numberOrNull } from '../../rows.ts';
import type { TimelinePage, WalletTimeline } from '../../wallet-questions.ts';
import { LatestRow, mergeSpans, olderOf, TIMELINE_EVENTS, TimelineRow, timelineEventOf } from './question.ts';

const DAY_MS = 86_400_000;

/** A page's session, with the first and last UTC day it has events on (`session_days`); null without a row. */
const PageRow = LatestRow.extend({ first_day_ms: numberOrNull, last_day_ms: numberOrNull });

/**
 * A page of the wallet's sessions from `wallet_events` (by their latest event carrying it) with the days
 * each has events on (`session_days`), then the sessions' events within those days: `events` is sorted by
 * time, so the days skip the granules between them (ADR 084). `events` without FINAL, each event once by
 * its id (a copy stored twice is the same row; ADR 073).
 */
export async function walletTimeline(
  clickhouse: ClickHouse,
  projectId: string,
  wallet: string,
  page: TimelinePage,
): Promise<WalletTimeline> {
  const after = page.after
    ? `HAVING ${ms('max(ts)')} < {after_ms:Int64}
          OR (${ms('max(ts)')} = {after_ms:Int64} AND session_id > {after_session:String})`
    : '';
  const latest = await clickhouse.rows(
    `WITH latest AS (
       SELECT session_id, ${ms('max(ts)')} AS last_ms FROM wallet_events
        WHERE project_id = {project:String} AND wallet = {wallet:String}
        GROUP BY session_id ${after}
        ORDER BY last_ms DESC, session_id LIMIT {sessions:Int64}
     ),
     days AS (
       SELECT session_id AS d_session, ${ms("toDateTime64(min(day), 3, 'UTC')")} AS first_day_ms,
              ${ms("toDateTime64(max(day), 3, 'UTC')")} AS last_day_ms
         FROM session_days
        WHERE project_id = {project:String} AND session_id IN (SELECT session_id FROM latest)
        GROUP BY session_id
     )
     SELECT session_id, last_ms, first_day_ms, last_day_ms
       FROM latest LEFT JOIN days ON d_session = session_id
      ORDER BY last_ms DESC, session_id
     SETTINGS join_use_nulls = 1`,
    {
      project: projectId,
      wallet,
      sessions: page.sessions + 1,
      ...(page.after && { after_ms: page.after.lastMs, after_session: page.after.sessionId }),
    },
    PageRow,
  );
  const shown = latest.slice(0, page.sessions);
  if (shown.length === 0) return { events: [], older: null };
  const params: Params = { project: projectId };
  shown.forEach((row, index) => {
    params[`s_${index}`] = row.session_id;
  });
  const ids = shown.map((_row, index) => `{s_${index}:String}`).join(', ');
  // A session without its days (never, as `session_days` is fed by every insert) is read without them.
  const spans = shown.every((row) => row.first_day_ms !== null && row.last_day_ms !== null)
    ? mergeSpans(
        shown.map((row) => ({ fromMs: Number(row.first_day_ms), toMs: Number(row.last_day_ms) + DAY_MS })),
      )
    : [];
  const within = spans.length
    ? `AND (${spans
        .map((span, index) => {
          params[`f_${index}`] = span.fromMs;
          params[`t_${index}`] = span.toMs;
          return `(ts >= fromUnixTimestamp64Milli({f_${index}:Int64}, 'UTC') AND ts < fromUnixTimestamp64Milli({t_${index}:Int64}, 'UTC'))`;
        })
        .join(' OR ')})`
    : '';
  const rows = await clickhouse.rows(
    `SELECT id, session_id, ${ms('ts')} AS time_ms, type, path, wallet_address, wallet_provider, chain_id,
            tx_id, tx_stage, tx_hash, tx_to, selector, toString(gas_used) AS gas_used_text,
            toString(effective_gas_price) AS effective_gas_price_text, sig_stage, sig_method, error_source,
            error_message, error_code, rpc_method, incident_id, toString(gas_balance) AS gas_balance_text,
            toString(wallet_nonce) AS wallet_nonce_text
       FROM ${EVENT_ROWS}
      WHERE project_id = {project:String} AND session_id IN (${ids}) ${within}
      ORDER BY transform(session_id, [${shown.map((_r, i) => `{s_${i}:String}`).join(', ')}], [${shown.map((_r, i) => i).join(', ')}], ${shown.length}), ts, id
      LIMIT 1 BY id
      LIMIT ${TIMELINE_EVENTS}`,
    params,
    TimelineRow,
  );
  const events = rows.map(timelineEventOf);
  return { events, older: olderOf(latest, page.sessions, events) };
}
