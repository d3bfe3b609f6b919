import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { BucketedRange, TimeRange } from '../../../reading/time-range.ts';
import { TRANSACTION_METHODS, TX_FAILURE_WINDOW } from '../incident-questions.ts';

/**
 * SQL pieces every DuckDB analytics query shares. Values always travel as named parameters
 * ($project, $from, $to, $bucket, …); only these constant fragments are spliced into the text.
 */

/** Later stages of a transaction arrive after its request; the SDK stops following one after ~20 minutes. */
export const TX_STAGE_WINDOW_MS = 86_400_000;

export const FROM = 'make_timestamp($from::BIGINT * 1000)';
export const TO = 'make_timestamp($to::BIGINT * 1000)';
/** The project's events with `ts` in [from, to). */
export const IN_RANGE = `project_id = $project AND ts >= ${FROM} AND ts < ${TO}`;

/** Index of the bucket a time falls in: buckets start at $from and last $bucket ms. */
export const bucketOf = (expression: string) =>
  `floor((epoch_ms(${expression}) - $from::BIGINT) / $bucket::BIGINT)::BIGINT`;

/** Ranks that order stages logged in the same millisecond: the request first, an outcome last. */
const STAGE_RANK = `CASE tx_stage WHEN 'requested' THEN 0 WHEN 'submitted' THEN 1 ELSE 2 END`;
export const SUBMITTED_STAGES = `('submitted', 'confirmed', 'reverted', 'replaced', 'dropped')`;

/** Orders a transaction's stages: by time, then by STAGE_RANK within a millisecond. */
export const STAGE_KEY = `epoch_ms(ts) * 10 + ${STAGE_RANK}`;
/** What a transaction row can hold; each query asks only for what it reads (aggregates are the cost). */
export const LATEST_STAGE = `arg_max(tx_stage, ${STAGE_KEY})`;
/** Where the stages of transactions requested in [from, to) can lie. */
export const STAGE_WINDOW = `ts >= make_timestamp(($from::BIGINT - ${TX_STAGE_WINDOW_MS}) * 1000)
     AND ts < make_timestamp(($to::BIGINT + ${TX_STAGE_WINDOW_MS}) * 1000)`;

const TRANSACTION_FIELDS = {
  status: `${LATEST_STAGE} AS status`,
  is_submitted: `bool_or(tx_stage IN ${SUBMITTED_STAGES}) AS is_submitted`,
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
  session_id: 'arg_min(session_id, ts) AS session_id',
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
  HAVING min(ts) >= ${FROM} AND min(ts) < ${TO}
)`;
}

/** Every field: for queries outside this module that want the whole transaction. */
export const TRANSACTIONS_CTE = transactionsCte(Object.keys(TRANSACTION_FIELDS) as TransactionField[]);

/** The error sources of incidents: the published SDK's own failures (source `sdk`) are Polyflow's problem. */
export const INCIDENT_SOURCES = `('window', 'promise', 'wallet')`;

/** An occurrence (alias `o`) that is a wallet's failure to send a transaction (incident-questions.ts). */
export const SENDING_OCCURRENCE = (o: string) =>
  `${o}.error_source = 'wallet' AND ${o}.rpc_method IN (${TRANSACTION_METHODS.map((method) => `'${method}'`).join(', ')})`;

/** A failed or reverted stage (alias `t`) of the occurrence's (`o`) session within TX_FAILURE_WINDOW of it. */
export const FAILED_NEAR = (o: string, t: string) =>
  `${t}.session_id = ${o}.session_id AND ${t}.ts >= ${o}.ts - to_milliseconds(${TX_FAILURE_WINDOW.beforeMs}) ` +
  `AND ${t}.ts <= ${o}.ts + to_milliseconds(${TX_FAILURE_WINDOW.afterMs})`;

export type Params = Record<string, DuckDBValue>;

export const rangeParams = (projectId: string, range: TimeRange): Params => ({
  project: projectId,
  from: BigInt(range.fromMs),
  to: BigInt(range.toMs),
});

export const bucketParams = (projectId: string, range: BucketedRange): Params => ({
  ...rangeParams(projectId, range),
  bucket: BigInt(range.bucketMs),
});

/** Runs a query and answers its rows as plain JS values (BIGINT → bigint, DOUBLE → number, TIMESTAMP → Date). */
export async function rowsOf(connection: DuckDBConnection, sql: string, params: Params) {
  const reader = await connection.runAndReadAll(sql, params);
  return reader.getRowObjectsJS();
}

/** bucket index → value, from rows shaped `{bucket, value}`. */
export function bucketMap<T>(rows: Record<string, unknown>[], value: (row: Record<string, unknown>) => T) {
  return new Map(rows.map((row) => [Number(row.bucket), value(row)] as const));
}

export const numberOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
export const textOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/** A reader connection, for the question files outside this folder (questions/<question>/duckdb.ts). */
export type Connection = DuckDBConnection;
