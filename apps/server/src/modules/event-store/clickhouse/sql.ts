import type { BucketedRange, TimeRange } from '../../../reading/time-range.ts';
import { STAGE_RANK, SUBMITTED_STAGES, sqlList, TX_STAGE_WINDOW_MS } from '../domain.ts';
import type { HistoryFilter } from '../questions/transaction-history/question.ts';
import type { Params } from './client.ts';

/**
 * SQL pieces every ClickHouse question shares. Values always travel as query parameters
 * ({project:String}, {from:Int64}, …); only these constant fragments are spliced into the text.
 */

/**
 * The events as the questions read them: FINAL merges away the copies of an event loaded twice (a retried
 * batch, a replayed segment) that background merges have not removed yet, so nothing is counted twice.
 */
export const EVENTS = 'events FINAL';
/**
 * `events` as stored, without FINAL: for reads whose every figure is a minimum, maximum, argMin/argMax,
 * distinct count or one row per key (LIMIT 1 BY), which an event stored twice (the same row) does not
 * change; a deleted event is hidden either way (ADR 044, 073).
 */
export const EVENT_ROWS = 'events';

export const FROM = "fromUnixTimestamp64Milli({from:Int64}, 'UTC')";
export const TO = "fromUnixTimestamp64Milli({to:Int64}, 'UTC')";
/** The project's events with `ts` in [from, to). */
export const IN_RANGE = `project_id = {project:String} AND ts >= ${FROM} AND ts < ${TO}`;

/** The host of a URL, lower case, without a leading `www.`; '' when there is none. */
export const HOST_OF = (url: string) =>
  `replaceRegexpOne(lower(extract(${url}, '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?([^/:?#]+)')), '^www[.]', '')`;
const ORIGIN_HOST = `replaceRegexpOne(lower(origin), '^www[.]', '')`;
const REFERRER_HOST = HOST_OF("coalesce(referrer, '')");
/**
 * A page view's referrer domain, '' for direct (no referrer, or the dapp's own host). The empty text, not
 * NULL, so that it is a key like any other (grouping, joining) and `argMin` does not skip it.
 */
export const REFERRER_DOMAIN = `if(${REFERRER_HOST} = ${ORIGIN_HOST}, '', ${REFERRER_HOST})`;

/** A time as epoch ms (Int64). */
export const ms = (expression: string) => `toUnixTimestamp64Milli(${expression})`;

/**
 * Index of the bucket a time falls in: buckets start at {from} and last {bucket} ms; in a zoned range
 * (whole local days, `BucketedRange.zone`) they step by the wall clock of {zone} from {from_wall}, so a
 * 23- or 25-hour day is one bucket.
 */
export const bucketOf = (expression: string, range: BucketedRange) =>
  range.zone
    ? `toInt64(floor((${ms(expression)} + toInt64(timeZoneOffset(toTimeZone(${expression}, {zone:String}))) * 1000 - {from_wall:Int64}) / {bucket:Int64}))`
    : `toInt64(floor((${ms(expression)} - {from:Int64}) / {bucket:Int64}))`;

export const rangeParams = (projectId: string, range: TimeRange): Params => ({
  project: projectId,
  from: range.fromMs,
  to: range.toMs,
});

export const bucketParams = (projectId: string, range: BucketedRange): Params => ({
  ...rangeParams(projectId, range),
  bucket: range.bucketMs,
  ...(range.zone ? { zone: range.zone.name, from_wall: range.zone.fromWallMs } : {}),
});

/**
 * A stage's order among a transaction's stages: its time, then its rank within the millisecond, then its
 * event id (the greatest last, domain.ts), as text that compares in that order: the time in ms times ten
 * plus the rank as 16 hex digits (an event's time is never before 1970), then the id. Text, not a tuple:
 * `argMax` and `max` compare a tuple generically, about three times the CPU of a text's bytes.
 */
export const STAGE_ORDER = `concat(leftPad(hex(toUInt64(${ms('ts')} * 10 + ${STAGE_RANK})), 16, '0'), id)`;
/** The latest stage of a transaction's events (docs/analytics.md: by time, rank, then the greatest event id). */
export const LATEST_STAGE = `argMax(tx_stage, ${STAGE_ORDER})`;
/** Where the stages of transactions requested in [from, to) can lie. */
export const STAGE_WINDOW = `ts >= fromUnixTimestamp64Milli({from:Int64} - ${TX_STAGE_WINDOW_MS}, 'UTC')
     AND ts < fromUnixTimestamp64Milli({to:Int64} + ${TX_STAGE_WINDOW_MS}, 'UTC')`;

/**
 * What a transaction row can hold; each query asks only for what it reads. Named `t_…`: a ClickHouse alias
 * is visible in the whole query, so one equal to a column's name would take that column's place.
 */
const TRANSACTION_FIELDS = {
  status: `${LATEST_STAGE} AS t_status`,
  is_submitted: `max(tx_stage IN ${sqlList(SUBMITTED_STAGES)}) AS t_is_submitted`,
  kind: 'any(tx_kind) AS t_kind',
  hash: 'max(tx_hash) AS t_hash',
  wallet: 'argMin(coalesce(tx_from, wallet_address), ts) AS t_wallet',
  chain_id: 'argMin(chain_id, ts) AS t_chain_id',
  contract: 'any(tx_to) AS t_contract',
  selector: 'any(selector) AS t_selector',
  user_id: 'argMin(user_id, ts) AS t_user_id',
  country: 'argMin(country, ts) AS t_country',
  browser: 'argMin(browser, ts) AS t_browser',
  path: 'argMin(path, ts) AS t_path',
  session_key: 'argMin(session_key, ts) AS t_session_key',
} as const;
export type TransactionField = keyof typeof TRANSACTION_FIELDS;

/**
 * `transactions`: one row per transaction (tx_id) first requested in [from, to), with `requested_at` and
 * the asked fields (`t_<field>`), built from all its stages. The scan reaches one stage window beyond each
 * end so that stages logged around an edge are seen, and a transaction that started before `from` is
 * recognised as such (its first event lies before `from`).
 */
export function transactionsCte(
  fields: readonly TransactionField[] = [],
  onlyContracts = false,
  /** A further condition on a transaction's aggregates (the Analytics filters: its request's session). */
  having = '',
): string {
  const columns = fields.map((field) => `,\n         ${TRANSACTION_FIELDS[field]}`).join('');
  // Every stage of a transaction repeats its kind, so filtering stages by kind keeps whole transactions.
  const kind = onlyContracts ? ` AND tx_kind = 'contract'` : '';
  return `transactions AS (
  SELECT tx_id,
         min(ts) AS requested_at${columns}
    FROM ${EVENTS}
   WHERE project_id = {project:String} AND type = 'tx'${kind}
     AND ${STAGE_WINDOW}
   GROUP BY tx_id
  HAVING requested_at >= ${FROM} AND requested_at < ${TO}${having ? ` AND ${having}` : ''}
)`;
}

/** Every field: for questions outside this file that want the whole transaction. */
/**
 * The history's filter (questions/transaction-history, docs/analytics.md#searching-and-filtering-the-history)
 * as a stage condition (`where`: every stage repeats its kind) and a condition on the transaction's
 * aggregates (`having`), with their `f_…` parameters.
 */
export function historyFilterSql(filter: HistoryFilter): { where: string; having: string; params: Params } {
  const where: string[] = [];
  const having: string[] = [];
  const params: Params = {};
  if (filter.kind) {
    where.push('tx_kind = {f_kind:String}');
    params.f_kind = filter.kind;
  }
  if (filter.status) {
    having.push(`${LATEST_STAGE} = {f_status:String}`);
    params.f_status = filter.status;
  }
  if (filter.contract) {
    having.push('any(tx_to) = {f_contract:String}');
    params.f_contract = filter.contract;
  }
  if (filter.selector) {
    having.push('any(selector) = {f_selector:String}');
    params.f_selector = filter.selector;
  }
  if (filter.search) {
    having.push(`(max(startsWith(coalesce(tx_hash, ''), {f_search:String}))
          OR startsWith(coalesce(argMin(coalesce(tx_from, wallet_address), ts), ''), {f_search:String}))`);
    params.f_search = filter.search;
  }
  return { where: where.join(' AND '), having: having.join(' AND '), params };
}

export const TRANSACTIONS_CTE = transactionsCte(Object.keys(TRANSACTION_FIELDS) as TransactionField[]);

/**
 * Custom events' users (docs/custom-events.md): each SDK user's latest identify names the app's user id it
 * stands for, from then on and before. `identities` is that mapping, read at query time from the derived
 * `custom_events` (every identify is there; ADR 072), without FINAL: a row stored twice changes no
 * `argMax`. `IDENTITY` is an event's (alias `e`) user under it (prefixed, so an app's id never meets an
 * SDK id of the same text).
 */
export const IDENTITIES_CTE = `identities AS (
  SELECT user_id, argMax(assumeNotNull(app_user_id), (ts, id)) AS app_id
    FROM custom_events
   WHERE project_id = {project:String} AND type = 'identify' AND app_user_id IS NOT NULL
   GROUP BY user_id
)`;
/**
 * `identities` keyed (ADR 093/094): per identified SDK user its `user_key` (`cityHash64(user_id)`, as the
 * events store it) and the key of its app's user id, `cityHash64(char(1) || app id)`: no SDK id holds a
 * control character (ingestion refuses them), so an app's key never meets an SDK user's. A question that
 * tells users apart by key groups by `if(app_key = 0, user_key, app_key)` after a LEFT JOIN on `user_key`.
 */
export const IDENTITY_KEYS_CTE = `${IDENTITIES_CTE},
identity_keys AS (
  SELECT cityHash64(user_id) AS user_key, cityHash64(concat(char(1), app_id)) AS app_key
    FROM identities WHERE app_id != ''
)`;
/** With the LEFT JOIN's default for a user without identify: an empty app_user_id. */
export const IDENTITY = `if(identities.app_id = '', concat('sdk:', e.user_id), concat('app:', identities.app_id))`;
/** The custom events (alias `e`, FINAL: each counts once) with their identities: what the Events questions read. */
export const CUSTOM_EVENTS_WITH_IDENTITIES =
  'custom_events AS e FINAL LEFT JOIN identities ON identities.user_id = e.user_id';
