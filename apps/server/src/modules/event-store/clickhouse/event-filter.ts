import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../reading/time-range.ts';
import { ANALYTICS_FILTER_COLUMNS, TX_STAGE_WINDOW_MS } from '../domain.ts';
import type { Params } from './client.ts';
import { rangeParts } from './day-parts.ts';
import { SESSION_VALUE_LISTS } from './session-values.ts';
import { IN_RANGE, REFERRER_DOMAIN } from './sql.ts';
import { transactionFolds } from './transaction-days.ts';

/**
 * The Analytics filters on ClickHouse (docs/analytics.md, "Filters"; ADR 074), as on DuckDB
 * (duckdb/event-filter.ts): `filtered_sessions` holds the session keys (`events.session_key`, ADR 093:
 * grouping by a number, not by hashing the text ids) of which, for every list set, an event in [from, to)
 * carries one of its values (for `referrers`, whose first page view in the range came from one of the
 * domains); a filtered question reads the events of those sessions. The sessions are read without FINAL:
 * an event stored twice changes no maximum and no first page view.
 */
export type EventFilter = {
  /**
   * The CTE `filtered_sessions` and the scalar `filtered_sessions_keys` (its keys as an array, found once
   * per query: what `events` and `transactions` read), to put after WITH before the question's own, or ''.
   */
  cte: string;
  /** ' AND <an event of a matching session>' for a WHERE on `events`, or ''. */
  events: string;
  /** A transaction whose request's session matches, for transactionsCte's HAVING, or ''. */
  transactions: string;
  /** `IN (<the passing sessions' keys>)`, to follow a session key (transactionFolds' `t_request_session`), or ''. */
  inSessions: string;
  /** `filter_<key>`: each list, as Array(String) (chain ids as decimal text). */
  params: Params;
};

export const NO_FILTER: EventFilter = { cte: '', events: '', transactions: '', inSessions: '', params: {} };

/**
 * The passing sessions' keys as one array, a scalar of the query (`<name>_keys`): ClickHouse computes a
 * CTE again wherever it is named, but a scalar subquery once per query, so every `IN` of one question
 * (its events, its transactions, the previous period's…) builds its set from that array instead of
 * finding the sessions again (ADR 111).
 */
const keysOf = (name: string) => `${name}_keys`;
const inKeys = (name: string) => `IN (SELECT arrayJoin(${keysOf(name)}))`;
const IN_FILTERED = inKeys('filtered_sessions');

/** The names of a range's bounds, as `{<from>:Int64}` and `{<to>:Int64}` parameters (epoch ms). */
export type RangeParams = { from: string; to: string };
const RANGE: RangeParams = { from: 'from', to: 'to' };

/**
 * The filter for `filters` over the range of the question's `from` and `to` (NO_FILTER without lists).
 * With `range` (those parameters' values), only the reads its days need are asked (see sessionFilter).
 */
export function eventFilter(filters: AnalyticsFilters | undefined, range?: TimeRange): EventFilter {
  return sessionFilter(filters, 'filtered_sessions', RANGE, range);
}

/** The lists set in `filters` (in ANALYTICS_FILTER_COLUMNS' order), each as its parameter. */
function setLists(filters: AnalyticsFilters | undefined) {
  const lists: { key: keyof AnalyticsFilters; column: string; param: string }[] = [];
  const params: Params = {};
  for (const [key, column] of Object.entries(ANALYTICS_FILTER_COLUMNS) as [
    keyof AnalyticsFilters,
    string,
  ][]) {
    const values = filters?.[key];
    if (!values || values.length === 0) continue;
    params[`filter_${key}`] = values.map(String);
    lists.push({ key, column, param: `{filter_${key}:Array(String)}` });
  }
  return { lists, params };
}

const msParam = (name: string) => `{${name}:Int64}`;
const instant = (msExpression: string) => `fromUnixTimestamp64Milli(${msExpression}, 'UTC')`;
const DAY = 86_400_000;

/**
 * The same filter as a CTE of another name over another range (`range`: the names of its bounds'
 * parameters; the project is `{project:String}`): for a question that matches the sessions of two periods
 * in one query.
 *
 * When every list set is one `session_values` keeps (SESSION_VALUE_LISTS; ADR 101), the range's whole
 * UTC days read only the rows of the values asked from it, and the events of the partial days at its
 * ends (none when it starts and ends at midnight UTC, all of it when it holds no whole day) give the
 * same flags from their columns; a session passes when, over both, each list's flag is set. Otherwise
 * (OS, device, chain, page, referrer) the range's events are grouped by session.
 */
export function sessionFilter(
  filters: AnalyticsFilters | undefined,
  name: string,
  range: RangeParams = RANGE,
  /**
   * The range's values, when known: a range of whole UTC days reads no events for its partial days, one
   * within a day no `session_values` (the conditions alone would find no row there, for a few ms of
   * chdb's CPU per read on a small project).
   */
  values?: TimeRange,
): EventFilter {
  const { lists, params } = setLists(filters);
  if (lists.length === 0) return NO_FILTER;
  const from = msParam(range.from);
  const to = msParam(range.to);
  const inRange = `project_id = {project:String} AND ts >= ${instant(from)} AND ts < ${instant(to)}`;
  const indexed = lists.every(({ key }) => key in SESSION_VALUE_LISTS);
  const parts = values ? rangeParts(values) : { days: true, edges: [[0, 0]] };
  const cte = indexed
    ? fromSessionValues(lists, from, to, inRange, { days: parts.days, edges: parts.edges.length > 0 })
    : fromEvents(lists, inRange);
  return {
    cte: `${name} AS (
       ${cte}
     ),
     (SELECT groupArray(session_key) FROM ${name}) AS ${keysOf(name)}`,
    events: ` AND session_key ${inKeys(name)}`,
    transactions: `argMin(session_key, ts) ${inKeys(name)}`,
    inSessions: inKeys(name),
    params,
  };
}

/** Every event of the range grouped by session, one aggregate per list (ADR 074, 086). */
function fromEvents(lists: ReturnType<typeof setLists>['lists'], inRange: string): string {
  const conditions = lists.map(({ key, column, param }) =>
    key === 'referrers'
      ? `has(${param}, argMinIf(${REFERRER_DOMAIN}, (ts, id), type = 'page_view'))`
      : `max(has(${param}, ${key === 'chains' ? `toString(${column})` : column}))`,
  );
  return `SELECT session_key FROM events
        WHERE ${inRange}
        GROUP BY session_key
       HAVING ${conditions.join('\n          AND ')}`;
}

/**
 * Per list, its sessions: those of the whole days' `session_values` rows of its values, and those of the
 * partial days' events carrying one of them; the lists' sets intersected (each set read in the table's
 * order is one range of rows; an intersection of sets costs less than grouping their rows by session).
 * Without FINAL on either: a row or an event stored twice is the same session.
 */
function fromSessionValues(
  lists: ReturnType<typeof setLists>['lists'],
  from: string,
  to: string,
  inRange: string,
  reads: { days: boolean; edges: boolean },
): string {
  // The range's whole days [days_from, days_to) as instants: midnight UTC at or after `from`, before `to`.
  const daysFrom = instant(`intDiv(${from} + ${DAY - 1}, ${DAY}) * ${DAY}`);
  const daysTo = instant(`intDiv(${to}, ${DAY}) * ${DAY}`);
  const sets = lists.map(({ key, column, param }) => {
    const parts: string[] = [];
    if (reads.days)
      parts.push(`SELECT session_key FROM session_values
          WHERE project_id = {project:String}
            AND day >= toDate(${daysFrom}, 'UTC') AND day < toDate(${daysTo}, 'UTC')
            AND list = '${SESSION_VALUE_LISTS[key as keyof typeof SESSION_VALUE_LISTS]}' AND value IN ${param}`);
    if (reads.edges)
      parts.push(`SELECT session_key FROM events
          WHERE ${inRange} AND (ts < ${daysFrom} OR ts >= ${daysTo}) AND has(${param}, ${column})`);
    // One list: its set made distinct, as an intersection's is.
    return `SELECT ${lists.length === 1 ? 'DISTINCT ' : ''}session_key FROM (
         ${parts.join('\n         UNION ALL\n         ')}
       )`;
  });
  return sets.join('\n       INTERSECT DISTINCT\n       ');
}

/** `WITH` and the CTEs given, the filter's first; '' when none is given. */
export const withCtes = (...ctes: string[]) => {
  const present = ctes.filter(Boolean);
  return present.length === 0 ? '' : `WITH ${present.join(',\n     ')}`;
};

/**
 * `filtered_wallets` (after `filtered_sessions`): the wallets an event of a passing session carried in
 * [from, to), for the Wallets cards (docs/wallets.md, "With the Analytics filters"); without FINAL (a
 * distinct set).
 */
export const FILTERED_WALLETS_CTE = `filtered_wallets AS (
       SELECT DISTINCT assumeNotNull(wallet_address) AS wallet FROM events
        WHERE ${IN_RANGE} AND wallet_address IS NOT NULL AND session_key ${IN_FILTERED}
     )`;

/**
 * `filtered_transactions` (after `filtered_sessions`): the transactions whose request (first stage, from
 * one stage window before `from` up to `to`) was logged in a passing session, found by their request key
 * in `transaction_days` (transactionFolds, ADR 111), with its parameters.
 */
export function filteredTransactionsCte(range: TimeRange): { cte: string; params: Params } {
  const folds = transactionFolds(
    { fromMs: range.fromMs - TX_STAGE_WINDOW_MS, toMs: range.toMs },
    'requests_',
  );
  return {
    cte: `filtered_transactions AS (
       ${folds.sql}
       HAVING t_request_session ${IN_FILTERED}
     )`,
    params: folds.params,
  };
}
