import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { ms } from '../../clickhouse/sql.ts';
import type { TimelinePage, WalletTimeline } from '../../wallet-questions.ts';
import { LatestRow, olderOf, TIMELINE_EVENTS, TimelineRow, timelineEventOf } from './question.ts';

/**
 * A page of the wallet's sessions from `wallet_events` (by their latest event carrying it), then the
 * sessions' events from `session_events`, sorted by session: a prefix read per session (ADR 096).
 * Without FINAL, each event once by its id (a copy stored twice is the same row; ADR 073).
 */
export async function walletTimeline(
  clickhouse: ClickHouse,
  projectId: string,
  wallet: string,
  page: TimelinePage,
): Promise<WalletTimeline> {
  const after = page.after
    ? `HAVING last_ms < {after_ms:Int64} OR (last_ms = {after_ms:Int64} AND session_id > {after_session:String})`
    : '';
  const latest = await clickhouse.rows(
    `SELECT session_id, ${ms('max(ts)')} AS last_ms FROM wallet_events
      WHERE project_id = {project:String} AND wallet = {wallet:String}
      GROUP BY session_id ${after}
      ORDER BY last_ms DESC, session_id LIMIT {sessions:Int64}`,
    {
      project: projectId,
      wallet,
      sessions: page.sessions + 1,
      ...(page.after && { after_ms: page.after.lastMs, after_session: page.after.sessionId }),
    },
    LatestRow,
  );
  const shown = latest.slice(0, page.sessions);
  if (shown.length === 0) return { events: [], older: null };
  const params: Params = { project: projectId };
  shown.forEach((row, index) => {
    params[`s_${index}`] = row.session_id;
  });
  const ids = shown.map((_row, index) => `{s_${index}:String}`).join(', ');
  const rows = await clickhouse.rows(
    `SELECT id, session_id, ${ms('ts')} AS time_ms, type, path, wallet_address, wallet_provider, chain_id,
            tx_id, tx_stage, tx_hash, tx_to, selector, toString(gas_used) AS gas_used_text,
            toString(effective_gas_price) AS effective_gas_price_text, sig_stage, sig_method, error_source,
            error_message, error_code, rpc_method, incident_id, toString(gas_balance) AS gas_balance_text,
            toString(wallet_nonce) AS wallet_nonce_text
       FROM session_events
      WHERE project_id = {project:String} AND session_id IN (${ids})
      ORDER BY transform(session_id, [${ids}], [${shown.map((_r, i) => i).join(', ')}], ${shown.length}), ts, id
      LIMIT 1 BY id
      LIMIT ${TIMELINE_EVENTS}`,
    params,
    TimelineRow,
  );
  const events = rows.map(timelineEventOf);
  return { events, older: olderOf(latest, page.sessions, events) };
}
