import { z } from 'zod';
import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { timeParam } from '../../clickhouse/question-sql.ts';
import { ms } from '../../clickhouse/sql.ts';
import { text, textOrNull } from '../../rows.ts';
import type { TimelinePage, WalletTimeline, WalletTimelineEvent } from '../../wallet-questions.ts';
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
    `SELECT id, session_id, ${ms('ts')} AS time_ms, type, CAST(NULL AS Nullable(String)) AS event_name, path,
            wallet_address, wallet_provider, chain_id,
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
  const events = await withEventNames(clickhouse, projectId, rows.map(timelineEventOf));
  return { events, older: olderOf(latest, page.sessions, events) };
}

/**
 * The custom events' names, read from `events` by their keys (time, id): `session_events` does not copy
 * `event_name`, and a timeline page holds at most a few hundred events, few of them custom.
 */
async function withEventNames(
  clickhouse: ClickHouse,
  projectId: string,
  events: WalletTimelineEvent[],
): Promise<WalletTimelineEvent[]> {
  const custom = events.filter((event) => event.type === 'custom');
  if (custom.length === 0) return events;
  const times = custom.map((event) => event.timeMs);
  const rows = await clickhouse.rows(
    `SELECT id, event_name FROM events
      WHERE project_id = {project:String} AND type = 'custom'
        AND ts >= ${timeParam('from')} AND ts <= ${timeParam('to')} AND id IN {ids:Array(String)}
      LIMIT 1 BY id`,
    {
      project: projectId,
      from: Math.min(...times),
      to: Math.max(...times),
      ids: custom.map((event) => event.eventId),
    },
    EventNameRow,
  );
  const names = new Map(rows.map((row) => [row.id, row.event_name]));
  return events.map((event) =>
    event.type === 'custom' ? { ...event, eventName: names.get(event.eventId) ?? null } : event,
  );
}

const EventNameRow = z.object({ id: text, event_name: textOrNull });
