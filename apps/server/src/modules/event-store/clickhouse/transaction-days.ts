import type { TimeRange } from '../../../reading/time-range.ts';
import { STAGE_RANK, SUBMITTED_STAGES, sqlList } from '../domain.ts';
import type { Params } from './client.ts';
import { COPY_SPILL_BYTES } from './copy-spill.ts';
import { dayParts } from './day-parts.ts';
import { ms, STAGE_ORDER } from './sql.ts';

/**
 * `transaction_days`: one row per (project, UTC day, transaction) with what the transaction outcomes
 * read of that transaction's stages of that day (docs/decisions/033-clickhouse-transaction-days.md): its
 * first stage's time, whether one was a submitted stage, and its latest stage's key (ADR 045; text since
 * version 38): the stage's order (`STAGE_ORDER`: time in ms, then rank, then event id) followed by its
 * outcome (`STAGE_OUTCOME`) as one character, so that the latest stage is the largest key and its outcome
 * the key's last character. An
 * AggregatingMergeTree fed by a materialized view on `events`, like `session_days` and `wallet_days`: a
 * minimum and a maximum fold the same whatever the number of copies of a stage, the loads it came in or
 * their order.
 */

/** The UTC day an event falls in. */
const EVENT_DAY = "toDate(ts, 'UTC')";

/**
 * What the outcomes tell of a latest stage: 2 failed, 1 reverted, 0 any other (or none). Two stages of
 * one rank in the same millisecond order by their event id (STAGE_ORDER), not by this.
 */
export const OUTCOME = { failed: 2, reverted: 1 } as const;
const STAGE_OUTCOME = `multiIf(tx_stage = 'failed', ${OUTCOME.failed}, tx_stage = 'reverted', ${OUTCOME.reverted}, 0)`;
/**
 * A stage's key: its order, then its outcome as a character below any of an id's (`[A-Za-z0-9_-]`), so
 * that an id that begins another still orders first (`latestOutcome` reads it). The key of no stage at all
 * (a stage without a name is none, as `argMax` skips a NULL) is the empty text, below any other.
 */
export const STAGE_KEY = `if(tx_stage IS NULL, '', concat(${STAGE_ORDER}, char(${STAGE_OUTCOME})))`;
/** The outcome of the largest key `max(latest_stage_key)`: its last character's code (none: 0). */
export const latestOutcome = (latestKey: string) => `ascii(right(${latestKey}, 1))`;
/** The latest stage key's column (versions 11 and 28 make it as today's table does: see version 38). */
const LATEST_STAGE_KEY = 'latest_stage_key SimpleAggregateFunction(max, String)';

/** The table, `latestStage` its latest stage's column: an `argMax` state in version 7 (ADR 033), a key in 11. */
const createTransactionDays = (latestStage: string) => `CREATE TABLE IF NOT EXISTS transaction_days (
  project_id String,
  day Date,
  tx_id String,
  first_stage_at SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
  has_submitted SimpleAggregateFunction(max, UInt8),
  ${latestStage}
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, day, tx_id)`;

const FIRST_AND_SUBMITTED = `min(ts) AS first_stage_at,
         max(toUInt8(ifNull(tx_stage IN ${sqlList(SUBMITTED_STAGES)}, 0))) AS has_submitted`;

/** Version 7's aggregates, for its view and copy only (its order: time in ms, then rank). */
const VERSION_7_AGGREGATES = `${FIRST_AND_SUBMITTED},
         argMaxState(CAST(tx_stage, 'Nullable(String)'), toInt64(${ms('ts')} * 10 + ${STAGE_RANK})) AS latest_stage`;

/** The aggregates over a transaction's stages, for the view, the partial days of a question and rebuilds. */
export const TRANSACTION_DAY_AGGREGATES = `${FIRST_AND_SUBMITTED},
         max(${STAGE_KEY}) AS latest_stage_key`;

/** 2⁶⁴: a request key is its stage's time in ms times this, plus its session key. */
const KEY_SPAN = "toInt128('18446744073709551616')";
/**
 * A stage's request key (version 28, ADR 111): its time (epoch ms) and its session's key (`session_key`,
 * ADR 093) in one Int128, so that the smallest is the transaction's first stage's, the earlier time first
 * (the smaller session key within one millisecond): a plain minimum, as the latest stage key is a plain
 * maximum (a tuple's minimum cost about four times as much to fold).
 */
const REQUEST_KEY = `toInt128(toUnixTimestamp64Milli(ts)) * ${KEY_SPAN} + toInt128(cityHash64(session_id))`;
/** The session key of a request key: its low 64 bits (two's complement keeps them for times before 1970). */
export const requestSession = (requestKey: string) =>
  `toUInt64(bitAnd(${requestKey}, toInt128('18446744073709551615')))`;

/** Every column of `transaction_days` (version 28) over a transaction's stages of a day. */
export const TRANSACTION_DAY_COLUMNS = `${TRANSACTION_DAY_AGGREGATES},
         min(${REQUEST_KEY}) AS request_key`;

/** The rows of `transaction_days` for the events a SELECT reads (`where`: more conditions on them). */
export const transactionDaysOfEvents = (where = '', aggregates = TRANSACTION_DAY_COLUMNS) =>
  `SELECT project_id, ${EVENT_DAY} AS day, assumeNotNull(tx_id) AS tx_id,
         ${aggregates}
    FROM events
   WHERE type = 'tx' AND tx_id IS NOT NULL${where ? ` AND ${where}` : ''}
   GROUP BY project_id, day, tx_id`;

/** The view on `events` and the stored stages' copy, sorted by the key (ADR 031). */
const viewAndCopy = (aggregates: string) => [
  `CREATE MATERIALIZED VIEW IF NOT EXISTS transaction_days_of_events TO transaction_days AS
${transactionDaysOfEvents('', aggregates)}`,
  `INSERT INTO transaction_days ${transactionDaysOfEvents('', aggregates)}
   ORDER BY project_id, day, tx_id
SETTINGS max_bytes_before_external_group_by = ${COPY_SPILL_BYTES},
         max_bytes_before_external_sort = ${COPY_SPILL_BYTES}`,
];

/** Version 7 (ADR 033): the table, the view, then the stored stages. */
export const TRANSACTION_DAYS_STATEMENTS = [
  createTransactionDays('latest_stage AggregateFunction(argMax, Nullable(String), Int64)'),
  ...viewAndCopy(VERSION_7_AGGREGATES),
];

/**
 * Version 11 (ADR 045): the latest stage's key in place of its `argMax` state. The view stops, the table
 * (derived from the events alone) is made again with the key, the view starts again, and every stored
 * stage is copied, sorted: one copy, as a new table's (adding the column and copying into the rows held
 * would leave every row twice, in twice the parts, until merges fold them). Stages loaded while the view
 * was away are among the copied ones.
 */
export const TRANSACTION_DAY_KEYS_STATEMENTS = [
  'DROP VIEW IF EXISTS transaction_days_of_events',
  'DROP TABLE IF EXISTS transaction_days',
  createTransactionDays(LATEST_STAGE_KEY),
  ...viewAndCopy(TRANSACTION_DAY_AGGREGATES),
];

/**
 * Version 28 (ADR 111): each transaction-day's request key beside its other folds, so that a filtered
 * question finds the transactions requested in a passing session here instead of grouping every stage of
 * its window in `events`. Made again and filled from the stored stages as version 11 was. Version 38 runs
 * the same statements for the latest stage key as text (an Int64 before: the order without the event id,
 * so two outcomes of one millisecond kept the larger outcome, where every other question kept either).
 */
export const TRANSACTION_REQUEST_KEYS_STATEMENTS = [
  'DROP VIEW IF EXISTS transaction_days_of_events',
  'DROP TABLE IF EXISTS transaction_days',
  createTransactionDays(`${LATEST_STAGE_KEY},
  request_key SimpleAggregateFunction(min, Int128)`),
  ...viewAndCopy(TRANSACTION_DAY_COLUMNS),
];

/**
 * Each transaction with a stage in `window`, folded from those stages alone: `requested_at` (its first
 * stage's time), `t_is_submitted`, `t_outcome` (latestOutcome) and `t_request_session` (its first stage's
 * session key; left out with `withRequestSession: false`, as the unfiltered transaction outcomes need
 * none), read from `transaction_days` for the window's whole UTC days and from the stages among `events`
 * for its partial days (ADR 033). A SELECT … GROUP BY tx_id to
 * which a question adds its HAVING; parameters: `project`, and those returned (named with `prefix`).
 */
export function transactionFolds(
  window: TimeRange,
  prefix = 'stages_',
  { withRequestSession = true } = {},
): { sql: string; params: Params } {
  const parts = dayParts(window, prefix);
  const selects: string[] = [];
  if (parts.wholeDays)
    selects.push(`SELECT tx_id, first_stage_at, has_submitted, latest_stage_key${withRequestSession ? ', request_key' : ''}
          FROM transaction_days
         WHERE project_id = {project:String} AND ${parts.wholeDays}`);
  if (parts.partialDays)
    selects.push(`SELECT assumeNotNull(tx_id) AS tx_id, ${withRequestSession ? TRANSACTION_DAY_COLUMNS : TRANSACTION_DAY_AGGREGATES}
          FROM events
         WHERE project_id = {project:String} AND type = 'tx' AND tx_id IS NOT NULL AND ${parts.partialDays}
         GROUP BY tx_id`);
  return {
    sql: `SELECT tx_id,
              min(first_stage_at) AS requested_at,
              max(has_submitted) AS t_is_submitted,
              ${latestOutcome('max(latest_stage_key)')} AS t_outcome${
                withRequestSession
                  ? `,
              ${requestSession('min(request_key)')} AS t_request_session`
                  : ''
              }
         FROM (${selects.join('\n        UNION ALL\n        ')})
        GROUP BY tx_id`,
    params: parts.params,
  };
}

/** The (day, transaction) keys of the events a condition names: the rows a user's or a wallet's delete touches. */
export const transactionDayKeysOf = (where: string) =>
  `SELECT DISTINCT toString(${EVENT_DAY}) AS day, assumeNotNull(tx_id) AS tx
     FROM events
    WHERE type = 'tx' AND tx_id IS NOT NULL AND ${where}`;

export type TransactionDayKey = { day: string; tx: string };

/** Parameters: the first and last day of the keys (YYYY-MM-DD), and the keys as two arrays of text. */
export function transactionDayKeyParams(keys: readonly TransactionDayKey[]) {
  const days = keys.map((key) => key.day).sort();
  return {
    tx_keys_from: days[0] ?? '1970-01-01',
    tx_keys_to: days[days.length - 1] ?? '1970-01-01',
    tx_key_days: keys.map((key) => key.day),
    tx_key_ids: keys.map((key) => key.tx),
  };
}

const KEYS = 'arrayZip({tx_key_days:Array(String)}, {tx_key_ids:Array(String)})';

/** The `transaction_days` rows of those keys. */
export const IN_TRANSACTION_KEYS = `project_id = {project:String}
     AND day >= toDate({tx_keys_from:String}) AND day <= toDate({tx_keys_to:String})
     AND has(${KEYS}, (toString(day), tx_id))`;

/** The events of those keys (with `transactionDaysOfEvents`, which keeps the transactions' stages). */
export const EVENTS_IN_TRANSACTION_KEYS = `project_id = {project:String}
     AND ts >= toDateTime64({tx_keys_from:String}, 3, 'UTC')
     AND ts < toDateTime64({tx_keys_to:String}, 3, 'UTC') + INTERVAL 1 DAY
     AND has(${KEYS}, (toString(${EVENT_DAY}), assumeNotNull(tx_id)))`;
