import { SUBMITTED_STAGES, sqlList, TX_STAGE_WINDOW_MS } from '../domain.ts';
import type { DerivedTable } from './derived-table.ts';
import { keyOf } from './schema.ts';
import { RECEIPT_HAS_FEE, STAGE_KEY, STAGE_TIME_RANK } from './sql.ts';

/**
 * A `transaction_summaries` row whose stages lie less than the stage window apart: the scan of the events
 * around its range (transactionsCte) sees all of them. In microseconds: adding an interval to a timestamp
 * took 14 ms over the largest project's 74,000 rows.
 */
export const IS_SHORT = `epoch_us(last_ts) < epoch_us(requested_at) + ${TX_STAGE_WINDOW_MS * 1000}`;

/**
 * A receipt's hash as a 64-bit key (no hash: the empty text's): a transaction whose receipts' least and
 * greatest keys differ has several receipt hashes (an EIP-5792 batch mined as several transactions), whose
 * fees add up (docs/wallets.md); two hashes of one transaction sharing a key would count as one.
 */
export const RECEIPT_KEY = "hash(coalesce(lower(tx_hash), ''))";

/**
 * Of a `transaction_summaries` row with one receipt hash: whether its receipt (that hash's latest report)
 * is its latest `confirmed` one, the later of its latest `confirmed` and latest `reverted` (by time, then
 * id); else it is the `reverted` one, or it has none.
 */
export const LATER_RECEIPT_IS_CONFIRMED = `(reverted_ts IS NULL OR (confirmed_ts IS NOT NULL AND (confirmed_ts, confirmed_id) > (reverted_ts, reverted_id)))`;

/** Several receipt hashes: its fees are read from its events (docs/wallets.md), as a longer transaction's. */
export const HAS_SEVERAL_RECEIPTS = 'receipt_key_min <> receipt_key_max';

/** A loaded row's latest stage is later than the held one's (STAGE_KEY: order, then event id). */
const LATER_STATUS = '(excluded.status_key, excluded.status_id) > (status_key, status_id)';

/** CASE, not FILTER alone: DuckDB would multiply an unbounded pair before filtering it out. */
const FEE = `CASE WHEN ${RECEIPT_HAS_FEE} THEN gas_used * effective_gas_price END`;

/**
 * A transaction's receipts from its events (`where`: which events), each hash once at its latest report (by
 * time, then id; docs/wallets.md): `tx_id`, `ts`, `tx_stage` (its kind), `chain_id`, `tx_to`, `selector` and
 * `fee` (wei). For the transactions `transaction_summaries` does not answer: several receipt hashes, or
 * stages a stage window apart.
 */
export const latestReceiptsOfEvents = (
  where: string,
) => `SELECT tx_id, ts, tx_stage, chain_id, tx_to, selector,
         gas_used * effective_gas_price AS fee
    FROM events
   WHERE ${where} AND type = 'tx' AND tx_stage IN ('confirmed', 'reverted') AND ${RECEIPT_HAS_FEE}
 QUALIFY row_number() OVER (PARTITION BY tx_id, ${RECEIPT_KEY} ORDER BY ts DESC, id DESC) = 1`;

/** A value kept beside the (time, id) of the event it came from: replaced only by an earlier (or a later) one. */
const keep = (column: string, time: string, id: string, direction: '<' | '>') =>
  `${column} = CASE WHEN ${time} IS NULL OR (excluded.${time} IS NOT NULL AND (excluded.${time}, excluded.${id}) ${direction} (${time}, ${id}))
    THEN excluded.${column} ELSE ${column} END`;
const moves = (time: string, id: string, direction: '<' | '>') =>
  `(excluded.${time} IS NOT NULL AND (${time} IS NULL OR (excluded.${time}, excluded.${id}) ${direction} (${time}, ${id})))`;

/**
 * `transaction_summaries`: one row per transaction, its request, last stage and outcome (ADR 025), and for
 * the wallet questions (ADR 073) its sender (the first stage's `from`, or connected wallet, that has one),
 * its first stage's chain and its latest `confirmed` and latest `reverted` receipt's fee and chain (and the
 * reverted one's contract and function), each beside the (time, id) of the stage it came from, and the least
 * and greatest of its receipts' hash keys (ADR 165: several hashes are read from the events); and for the
 * Analytics filters (ADR 100) its request's id and session key (`events.session_key` of the first stage by
 * (time, id)), so that a filtered question keeps the transactions of the passing sessions without grouping
 * the range's stages.
 */
export const TRANSACTION_SUMMARIES: DerivedTable = {
  name: 'transaction_summaries',
  definedIn: 18,
  order: 'project_id, requested_at',
  // The latest stage by STAGE_KEY (time, rank, then the greatest event id: two outcomes in one millisecond
  // are ordered as on ClickHouse), kept as its order and event id, so that every order of loading gives the
  // same row.
  rows: `SELECT project_id, tx_id, min(ts) AS requested_at, max(ts) AS last_ts,
       max(${STAGE_TIME_RANK}) AS status_key, arg_max(id, ${STAGE_KEY}) AS status_id,
       arg_max(tx_stage, ${STAGE_KEY}) AS status,
       bool_or(tx_stage IN ${sqlList(SUBMITTED_STAGES)}) AS is_submitted,
       arg_min(coalesce(tx_from, wallet_address), (ts, id)) AS sender,
       min(ts) FILTER (WHERE coalesce(tx_from, wallet_address) IS NOT NULL) AS sender_ts,
       arg_min(id, (ts, id)) FILTER (WHERE coalesce(tx_from, wallet_address) IS NOT NULL) AS sender_id,
       arg_min(chain_id, (ts, id)) AS chain_id,
       min(ts) FILTER (WHERE chain_id IS NOT NULL) AS chain_ts,
       arg_min(id, (ts, id)) FILTER (WHERE chain_id IS NOT NULL) AS chain_event_id,
       arg_max(${FEE}, (ts, id)) FILTER (WHERE tx_stage = 'confirmed' AND ${RECEIPT_HAS_FEE}) AS confirmed_fee,
       max(ts) FILTER (WHERE tx_stage = 'confirmed' AND ${RECEIPT_HAS_FEE}) AS confirmed_ts,
       arg_max(id, (ts, id)) FILTER (WHERE tx_stage = 'confirmed' AND ${RECEIPT_HAS_FEE}) AS confirmed_id,
       arg_max_null(chain_id, (ts, id)) FILTER (WHERE tx_stage = 'confirmed' AND ${RECEIPT_HAS_FEE}) AS confirmed_chain,
       arg_max(${FEE}, (ts, id)) FILTER (WHERE tx_stage = 'reverted' AND ${RECEIPT_HAS_FEE}) AS reverted_fee,
       max(ts) FILTER (WHERE tx_stage = 'reverted' AND ${RECEIPT_HAS_FEE}) AS reverted_ts,
       arg_max(id, (ts, id)) FILTER (WHERE tx_stage = 'reverted' AND ${RECEIPT_HAS_FEE}) AS reverted_id,
       arg_max_null(chain_id, (ts, id)) FILTER (WHERE tx_stage = 'reverted' AND ${RECEIPT_HAS_FEE}) AS reverted_chain,
       arg_max_null(tx_to, (ts, id)) FILTER (WHERE tx_stage = 'reverted' AND ${RECEIPT_HAS_FEE}) AS reverted_to,
       arg_max_null(selector, (ts, id)) FILTER (WHERE tx_stage = 'reverted' AND ${RECEIPT_HAS_FEE}) AS reverted_selector,
       min(${RECEIPT_KEY}) FILTER (WHERE tx_stage IN ('confirmed', 'reverted') AND ${RECEIPT_HAS_FEE}) AS receipt_key_min,
       max(${RECEIPT_KEY}) FILTER (WHERE tx_stage IN ('confirmed', 'reverted') AND ${RECEIPT_HAS_FEE}) AS receipt_key_max,
       arg_min(id, (ts, id)) AS request_id,
       ${keyOf('arg_min(session_id, (ts, id))')} AS session_key
  FROM {source} WHERE type = 'tx' AND tx_id IS NOT NULL
 GROUP BY project_id, tx_id`,
  onConflict: [
    `ON CONFLICT (project_id, tx_id) DO UPDATE SET
  requested_at = least(requested_at, excluded.requested_at),
  last_ts = greatest(last_ts, excluded.last_ts),
  status = CASE WHEN ${LATER_STATUS} THEN excluded.status ELSE status END,
  status_id = CASE WHEN ${LATER_STATUS} THEN excluded.status_id ELSE status_id END,
  status_key = greatest(status_key, excluded.status_key),
  is_submitted = is_submitted OR excluded.is_submitted,
  ${keep('sender', 'sender_ts', 'sender_id', '<')},
  ${keep('sender_id', 'sender_ts', 'sender_id', '<')},
  ${keep('sender_ts', 'sender_ts', 'sender_id', '<')},
  ${keep('chain_id', 'chain_ts', 'chain_event_id', '<')},
  ${keep('chain_event_id', 'chain_ts', 'chain_event_id', '<')},
  ${keep('chain_ts', 'chain_ts', 'chain_event_id', '<')},
  ${keep('confirmed_fee', 'confirmed_ts', 'confirmed_id', '>')},
  ${keep('confirmed_id', 'confirmed_ts', 'confirmed_id', '>')},
  ${keep('confirmed_chain', 'confirmed_ts', 'confirmed_id', '>')},
  ${keep('confirmed_ts', 'confirmed_ts', 'confirmed_id', '>')},
  ${keep('reverted_fee', 'reverted_ts', 'reverted_id', '>')},
  ${keep('reverted_id', 'reverted_ts', 'reverted_id', '>')},
  ${keep('reverted_chain', 'reverted_ts', 'reverted_id', '>')},
  ${keep('reverted_to', 'reverted_ts', 'reverted_id', '>')},
  ${keep('reverted_selector', 'reverted_ts', 'reverted_id', '>')},
  ${keep('reverted_ts', 'reverted_ts', 'reverted_id', '>')},
  receipt_key_min = least(receipt_key_min, excluded.receipt_key_min),
  receipt_key_max = greatest(receipt_key_max, excluded.receipt_key_max),
  ${keep('session_key', 'requested_at', 'request_id', '<')},
  ${keep('request_id', 'requested_at', 'request_id', '<')}
  WHERE ${moves('requested_at', 'request_id', '<')} OR excluded.last_ts > last_ts
     OR ${LATER_STATUS}
     OR (excluded.is_submitted AND NOT is_submitted)
     OR ${moves('sender_ts', 'sender_id', '<')} OR ${moves('chain_ts', 'chain_event_id', '<')}
     OR ${moves('confirmed_ts', 'confirmed_id', '>')} OR ${moves('reverted_ts', 'reverted_id', '>')}
     OR (excluded.receipt_key_min IS NOT NULL AND (receipt_key_min IS NULL OR excluded.receipt_key_min < receipt_key_min))
     OR excluded.receipt_key_max > receipt_key_max`,
  ],
};
