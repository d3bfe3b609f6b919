import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { z } from 'zod';
import type { BucketedRange, TimeRange } from '../../../reading/time-range.ts';
import {
  FEE_LIMITS,
  STAGE_RANK,
  SUBMITTED_STAGES,
  sqlList,
  TRANSACTION_METHODS,
  TX_FAILURE_WINDOW,
  TX_STAGE_WINDOW_MS,
} from '../domain.ts';
import type { HistoryFilter } from '../questions/transaction-history/question.ts';
import { listValue } from './binding.ts';

/**
 * SQL pieces every DuckDB analytics query shares. Values always travel as named parameters
 * ($project, $from, $to, $bucket, …); only these constant fragments are spliced into the text.
 */

export const FROM = 'make_timestamp($from::BIGINT * 1000)';
export const TO = 'make_timestamp($to::BIGINT * 1000)';
/** The project's events with `ts` in [from, to). */
export const IN_RANGE = `project_id = $project AND ts >= ${FROM} AND ts < ${TO}`;

/**
 * Index of the bucket a time falls in: buckets start at $from and last $bucket ms; in a zoned range
 * (whole local days, `BucketedRange.zone`) they step by the wall clock of $zone from $from_wall, so a 23-
 * or 25-hour day is one bucket. `timezone('UTC', …)` reads the stored UTC time whatever the session's zone.
 */
export const bucketOf = (expression: string, range: BucketedRange) =>
  range.zone
    ? `floor((epoch_ms(timezone($zone, timezone('UTC', ${expression}))) - $from_wall::BIGINT) / $bucket::BIGINT)::BIGINT`
    : `floor((epoch_ms(${expression}) - $from::BIGINT) / $bucket::BIGINT)::BIGINT`;

/** A stage's time and rank as one number: by time, then by STAGE_RANK within a millisecond. */
export const STAGE_TIME_RANK = `epoch_ms(ts) * 10 + ${STAGE_RANK}`;
/**
 * Orders a transaction's stages: by STAGE_TIME_RANK, then by event id (the greatest last, domain.ts), so
 * that two outcomes of one millisecond order the same way in every load and on both engines. A struct:
 * DuckDB compares its id as bytes, as ClickHouse does its text order (clickhouse/sql.ts STAGE_ORDER).
 */
export const STAGE_KEY = `(${STAGE_TIME_RANK}, id)`;
/** The latest stage of a transaction's events (docs/analytics.md: by time, rank, then the greatest event id). */
export const LATEST_STAGE = `arg_max(tx_stage, ${STAGE_KEY})`;
/** Where the stages of transactions requested in [from, to) can lie. */
export const STAGE_WINDOW = `ts >= make_timestamp(($from::BIGINT - ${TX_STAGE_WINDOW_MS}) * 1000)
     AND ts < make_timestamp(($to::BIGINT + ${TX_STAGE_WINDOW_MS}) * 1000)`;

/** What a transaction row can hold; each query asks only for what it reads (aggregates are the cost). */
const TRANSACTION_FIELDS = {
  status: `${LATEST_STAGE} AS status`,
  is_submitted: `bool_or(tx_stage IN ${sqlList(SUBMITTED_STAGES)}) AS is_submitted`,
  kind: 'any_value(tx_kind) AS kind',
  hash: 'max(tx_hash) AS hash',
  wallet: 'arg_min(coalesce(tx_from, wallet_address), ts) AS wallet',
  chain_id: 'arg_min(chain_id, ts) AS chain_id',
  contract: 'any_value(tx_to) AS contract',
  selector: 'any_value(selector) AS selector',
  user_id: 'arg_min(user_id, ts) AS user_id',
  country: 'arg_min(country, ts) AS country',
  browser: 'arg_min(browser, ts) AS browser',
  path: 'arg_min(path, ts) AS path',
  session_key: 'arg_min(session_key, ts) AS session_key',
} as const;
export type TransactionField = keyof typeof TRANSACTION_FIELDS;

/**
 * `transactions`: one row per transaction (tx_id) first requested in [from, to), with `requested_at` and
 * the asked fields, built from all its stages. The scan reaches one stage window beyond each end so that
 * stages logged around an edge are seen, and a transaction that started before `from` is recognised as
 * such (its first event lies before `from`).
 */
export function transactionsCte(
  fields: readonly TransactionField[] = [],
  onlyContracts = false,
  /** A further condition on the stages that keeps whole transactions (e.g. on tx_id). */
  only = '',
  /** A further condition on the transaction's aggregates (the history's filter, the Analytics filters' session). */
  having = '',
): string {
  const columns = fields.map((field) => `,\n         ${TRANSACTION_FIELDS[field]}`).join('');
  // Every stage of a transaction repeats its kind, so filtering stages by kind keeps whole transactions.
  const kind = `${onlyContracts ? ` AND tx_kind = 'contract'` : ''}${only ? ` AND ${only}` : ''}`;
  return `transactions AS (
  SELECT tx_id,
         min(ts) AS requested_at${columns}
    FROM events
   WHERE project_id = $project AND type = 'tx'${kind}
     AND ${STAGE_WINDOW}
   GROUP BY tx_id
  HAVING min(ts) >= ${FROM} AND min(ts) < ${TO}${having ? ` AND ${having}` : ''}
)`;
}

/**
 * The history's filter (questions/transaction-history, docs/analytics.md#searching-and-filtering-the-history)
 * as a stage condition (`where`, for `only`: every stage repeats its kind) and a condition on the
 * transaction's aggregates (`having`), with their `$f_…` parameters.
 */
export function historyFilterSql(filter: HistoryFilter): { where: string; having: string; params: Params } {
  const where: string[] = [];
  const having: string[] = [];
  const params: Params = {};
  if (filter.kind) {
    where.push('tx_kind = $f_kind');
    params.f_kind = filter.kind;
  }
  if (filter.status) {
    having.push(`${LATEST_STAGE} = $f_status`);
    params.f_status = filter.status;
  }
  if (filter.contract) {
    having.push('any_value(tx_to) = $f_contract');
    params.f_contract = filter.contract;
  }
  if (filter.selector) {
    having.push('any_value(selector) = $f_selector');
    params.f_selector = filter.selector;
  }
  if (filter.search) {
    // Only the transactions one of whose stages in the window names the text aggregate: every transaction the
    // condition on its aggregates keeps is among them (its hash, or its first stage's sender, is on such a
    // stage), instead of grouping every transaction of the range to test each.
    const sender = 'coalesce(tx_from, wallet_address)';
    where.push(`tx_id IN (SELECT tx_id FROM events
       WHERE project_id = $project AND type = 'tx' AND ${STAGE_WINDOW}
         AND (starts_with(tx_hash, $f_search) OR starts_with(${sender}, $f_search)))`);
    having.push(`(bool_or(starts_with(tx_hash, $f_search))
          OR starts_with(arg_min(${sender}, ts), $f_search))`);
    params.f_search = filter.search;
  }
  return { where: where.join(' AND '), having: having.join(' AND '), params };
}

/** Every field: for queries outside this module that want the whole transaction. */
export const TRANSACTIONS_CTE = transactionsCte(Object.keys(TRANSACTION_FIELDS) as TransactionField[]);

/** An occurrence (alias `o`) that is a wallet's failure to send a transaction (incident-questions.ts). */
export const SENDING_OCCURRENCE = (o: string) =>
  `${o}.error_source = 'wallet' AND ${o}.rpc_method IN ${sqlList(TRANSACTION_METHODS)}`;

/** A failed or reverted stage (alias `t`) of the occurrence's (`o`) session within TX_FAILURE_WINDOW of it. */
export const FAILED_NEAR = (o: string, t: string) =>
  `${t}.session_id = ${o}.session_id AND ${t}.ts >= ${o}.ts - to_milliseconds(${TX_FAILURE_WINDOW.beforeMs}) ` +
  `AND ${t}.ts <= ${o}.ts + to_milliseconds(${TX_FAILURE_WINDOW.afterMs})`;

export type Params = Record<string, DuckDBValue>;

/** The host of a URL, lower case, without a leading `www.`; null when there is none. */
export const HOST_OF = (url: string) =>
  `nullif(regexp_replace(lower(regexp_extract(${url}, '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?([^/:?#]+)', 1)), '^www\\.', ''), '')`;
const ORIGIN_HOST = `regexp_replace(lower(origin), '^www\\.', '')`;
/** An event's referrer domain: null for direct (no referrer, or the dapp's own host). */
export const REFERRER_DOMAIN = `CASE WHEN ${HOST_OF('referrer')} = ${ORIGIN_HOST} THEN NULL ELSE ${HOST_OF('referrer')} END`;
/** A list of texts as one parameter (`$name::VARCHAR[]`). */
export const textListParam = (values: readonly string[]): DuckDBValue => listValue([...values]);

export const rangeParams = (projectId: string, range: TimeRange): Params => ({
  project: projectId,
  from: BigInt(range.fromMs),
  to: BigInt(range.toMs),
});

export const bucketParams = (projectId: string, range: BucketedRange): Params => ({
  ...rangeParams(projectId, range),
  bucket: BigInt(range.bucketMs),
  ...(range.zone ? { zone: range.zone.name, from_wall: BigInt(range.zone.fromWallMs) } : {}),
});

/** A reader connection of the adapter's pool, which a question runs its SQL on through `rowsOf`. */
export type Connection = DuckDBConnection;

/**
 * The DuckDB adapter's query function: runs a query and parses each row, as plain JS values (BIGINT →
 * bigint, DOUBLE → number), with the question's zod schema, the one the ClickHouse adapter parses with.
 */
export async function rowsOf<T>(
  connection: Connection,
  sql: string,
  params: Params,
  schema: z.ZodType<T>,
): Promise<T[]> {
  const reader = await connection.runAndReadAll(sql, params);
  return reader.getRowObjectsJS().map((row) => schema.parse(row));
}

/** A receipt whose fee counts (docs/wallets.md, FEE_LIMITS): both parts present and within the limits. */
export const RECEIPT_HAS_FEE = `gas_used IS NOT NULL AND effective_gas_price IS NOT NULL AND gas_used < ${FEE_LIMITS.gasUsed}::HUGEINT AND effective_gas_price < ${FEE_LIMITS.effectiveGasPrice}::HUGEINT`;

/**
 * Custom events' users (docs/custom-events.md): each SDK user's latest identify names the app's user id it
 * stands for, from then on and before. `identities` is that mapping, read at query time from the derived
 * `custom_events` (every identify is there; ADR 072); `IDENTITY` is the user of an event aliased `e` under
 * it (prefixed, so an app's id never meets an SDK id of the same text).
 */
export const IDENTITIES_CTE = `identities AS (
  SELECT user_id, arg_max(app_user_id, (ts, id)) AS app_id
    FROM custom_events
   WHERE project_id = $project AND type = 'identify' AND app_user_id IS NOT NULL
   GROUP BY user_id
)`;
export const IDENTITY = `coalesce('app:' || identities.app_id, 'sdk:' || e.user_id)`;
/** The custom events (alias `e`) with their identities: what the Events questions read. */
export const CUSTOM_EVENTS_WITH_IDENTITIES =
  'custom_events AS e LEFT JOIN identities ON identities.user_id = e.user_id';
