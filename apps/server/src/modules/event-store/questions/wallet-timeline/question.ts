import { z } from 'zod';
import { count, numberOrNull, text, textOrNull } from '../../rows.ts';
import type { SessionPosition, WalletTimelineEvent } from '../../wallet-questions.ts';

/**
 * A wallet's sessions as a timeline (docs/wallets.md, "The wallet page"): its latest sessions (those with
 * an event carrying it, by their latest such event), and every event of each, whatever it carries.
 */

/** At most this many events in a page (its newest sessions' first ones are kept). */
export const TIMELINE_EVENTS = 2000;

/** The sessions a page reads (newest first); one more than shown, to know whether an older one exists. */
export const LatestRow = z.object({ session_id: text, last_ms: count });
export type Latest = z.infer<typeof LatestRow>;

/** A time span, in epoch ms, `[fromMs, toMs)`. */
export type Span = { fromMs: number; toMs: number };

/** Spans merged where they overlap or touch, sorted: fewer ranges for the engine to prune with. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.fromMs - b.fromMs)) {
    const last = merged[merged.length - 1];
    if (last && span.fromMs <= last.toMs) last.toMs = Math.max(last.toMs, span.toMs);
    else merged.push({ ...span });
  }
  return merged;
}

/**
 * Where the next page starts: after the page's last session that has an event here, when an older session
 * exists (one more row read than shown) or the event cap cut the page short; null on the last page.
 */
export function olderOf(
  latest: readonly Latest[],
  shown: number,
  events: readonly WalletTimelineEvent[],
): SessionPosition | null {
  const page = latest.slice(0, shown);
  const present = new Set(events.map((event) => event.sessionId));
  let last = -1;
  page.forEach((row, index) => {
    if (present.has(row.session_id)) last = index;
  });
  const cut = last >= 0 && last < page.length - 1;
  const row = page[last];
  if (!row || (!cut && latest.length <= shown)) return null;
  return { lastMs: row.last_ms, sessionId: row.session_id };
}

/** A timeline event as both engines answer it; big numbers as `…_text` (no alias equals a column's name). */
export const TimelineRow = z.object({
  id: text,
  session_id: text,
  time_ms: count,
  type: text,
  event_name: textOrNull,
  path: textOrNull,
  wallet_address: textOrNull,
  wallet_provider: textOrNull,
  chain_id: numberOrNull,
  tx_id: textOrNull,
  tx_stage: textOrNull,
  tx_hash: textOrNull,
  tx_to: textOrNull,
  selector: textOrNull,
  gas_used_text: textOrNull,
  effective_gas_price_text: textOrNull,
  sig_stage: textOrNull,
  sig_method: textOrNull,
  error_source: textOrNull,
  error_message: textOrNull,
  error_code: numberOrNull,
  rpc_method: textOrNull,
  incident_id: textOrNull,
  gas_balance_text: textOrNull,
  wallet_nonce_text: textOrNull,
});

export const timelineEventOf = (row: z.infer<typeof TimelineRow>): WalletTimelineEvent => ({
  eventId: row.id,
  sessionId: row.session_id,
  timeMs: row.time_ms,
  type: row.type,
  eventName: row.event_name,
  path: row.path,
  walletAddress: row.wallet_address,
  walletProvider: row.wallet_provider,
  chainId: row.chain_id,
  txId: row.tx_id,
  txStage: row.tx_stage,
  txHash: row.tx_hash,
  txTo: row.tx_to,
  selector: row.selector,
  gasUsed: row.gas_used_text,
  effectiveGasPrice: row.effective_gas_price_text,
  sigStage: row.sig_stage,
  sigMethod: row.sig_method,
  errorSource: row.error_source,
  errorMessage: row.error_message,
  errorCode: row.error_code,
  rpcMethod: row.rpc_method,
  incidentId: row.incident_id,
  gasBalance: row.gas_balance_text,
  walletNonce: row.wallet_nonce_text,
});
