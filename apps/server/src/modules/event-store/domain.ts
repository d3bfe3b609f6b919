import type { AnalyticsFilterKey } from '@polyflow/contracts/analytics';

/**
 * The event store's domain constants: stages, windows, sources, ranks and limits, defined once here and
 * imported by both engines' questions and derived tables (and by the incident fingerprint). Definitions:
 * docs/analytics.md and docs/acquisition-and-incidents.md. SQL fragments here are plain SQL that DuckDB
 * and ClickHouse both read the same way.
 */

/** The stages of a transaction that mean the wallet gave a hash: it was submitted. */
export const SUBMITTED_STAGES = ['submitted', 'confirmed', 'reverted', 'replaced', 'dropped'] as const;

/** Later stages of a transaction arrive after its request; the SDK stops following one after ~20 minutes. */
export const TX_STAGE_WINDOW_MS = 86_400_000;

/**
 * Ranks that order a transaction's stages logged in the same millisecond: the request first, then the
 * submission, an outcome last. A SQL expression over the row's `tx_stage`. Two stages of one rank in one
 * millisecond (two outcomes) order by their event id, the greatest last: ids are ASCII
 * (`[A-Za-z0-9_-]`), compared byte by byte in both engines (each engine's `sql.ts` writes the whole order).
 */
export const STAGE_RANK = `CASE WHEN tx_stage = 'requested' THEN 0 WHEN tx_stage = 'submitted' THEN 1 ELSE 2 END`;

/** The error sources of incidents: the published SDK's own failures (source `sdk`) are Polyflow's problem. */
export const INCIDENT_SOURCES = ['window', 'promise', 'wallet'] as const;

/** Wallet methods that send a transaction: a wallet error of one is a refusal to send it. */
export const TRANSACTION_METHODS = [
  'eth_sendTransaction',
  'eth_sendRawTransaction',
  'eth_signTransaction',
  'wallet_sendCalls',
] as const;

/**
 * A failed transaction is blamed on an occurrence only when the occurrence is the wallet's refusal to send
 * it: a wallet error of a sending method (TRANSACTION_METHODS) in the same session, within 10 s of the
 * transaction's `failed` or `reverted` stage (the SDK reports the failed call just after the stage). A
 * page error near a failed transaction is not evidence that it caused it.
 */
export const TX_FAILURE_WINDOW = { beforeMs: 10_000, afterMs: 10_000 } as const;

/** How far around a transaction a wallet's revert message is taken as its reason. */
export const REVERT_ERROR_WINDOW = { beforeMs: 60_000, afterMs: 10_000 } as const;

/** An occurrence's trail reaches back at most this far in its session... */
export const TRAIL_LOOKBACK_MS = 86_400_000;
/** ...and holds at most this many events. */
export const TRAIL_LENGTH = 20;

/** At most this many values per acquisition filter list, most users first: a multi-select, not an export. */
export const MAX_FILTER_OPTIONS = 200;

/** A SQL list of constant text values, `('a', 'b')`, for `IN`: only for the constants above, never input. */
export const sqlList = (values: readonly string[]) =>
  `(${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ')})`;

/**
 * A receipt's fee counts only when its gas used is below 2^48 and its effective gas price below 2^72 wei
 * (docs/wallets.md): real receipts are far below both, and bounded fees keep every product and sum within
 * DuckDB's 128-bit integers. Each engine compares with its own cast of these decimal strings.
 */
export const FEE_LIMITS = {
  gasUsed: '281474976710656',
  effectiveGasPrice: '4722366482869645213696',
} as const;

/**
 * The Analytics filters' dimensions (docs/analytics.md, "Filters"), defined once for both engines: the
 * `events` column each reads, or `referrer`: the session's landing referrer domain as the top referrers
 * table defines it (its first page view in the range; the dapp's own host and none are direct, which no
 * filter value names). The names shared with the acquisition filters read the same columns.
 */
export const ANALYTICS_FILTER_COLUMNS = {
  countries: 'country',
  browsers: 'browser',
  oses: 'os',
  devices: 'device',
  walletProviders: 'wallet_provider',
  chains: 'chain_id',
  sources: 'utm_source',
  mediums: 'utm_medium',
  campaigns: 'utm_campaign',
  pages: 'path',
  referrers: 'referrer',
} as const satisfies Record<AnalyticsFilterKey, string>;
