import { SUBMITTED_STAGES, sqlList } from '../domain.ts';

/**
 * `session_days`: one row per (project, UTC day, session, user) with what the acquisition questions
 * read of that session's events of that day (docs/decisions/030-clickhouse-session-days.md). An
 * AggregatingMergeTree fed by a materialized view on `events`: each insert adds a row per key of its
 * block, and merges fold the rows of one key with each column's function. Every column is a minimum, a
 * maximum or a set, so the same event stored twice (a retried load), a session's events spread over
 * several loads, or loads arriving out of order all fold to the same row. The questions fold again at read
 * time (GROUP BY), over the whole days of their range, and compute the partial days at its ends from
 * `events` with the very same aggregates (session-rows.ts).
 */

const IS_SUBMITTED = `type = 'tx' AND tx_id IS NOT NULL AND ifNull(tx_stage IN ${sqlList(SUBMITTED_STAGES)}, 0)`;

/** The distinct non-null values of an events column, as a plain Array(String). */
const valueSet = (column: string, where = `${column} IS NOT NULL`) =>
  `groupUniqArrayIf(toString(assumeNotNull(${column})), ${where})`;

/** Landing UTM of a session, by the attribution dimension: the SDK repeats it on every event; blank is absent. */
const landing = (column: string) => `min(nullIf(trimBoth(${column}), ''))`;

type Kind = 'flag' | 'set' | 'landing';

/**
 * How a kind of column is stored (merges fold a key's rows with its function), and how the questions fold
 * a session's rows into one (`fold`, over the column). A set's rows are concatenated, then made distinct:
 * the same set as groupUniqArrayArray, without a hash table per session (about a third less of chdb's
 * CPU over the 226,622 session-days of the bench's largest project in 30 days, ADR 030).
 */
const KINDS: Record<Kind, { type: string; fold: (column: string) => string }> = {
  flag: { type: 'SimpleAggregateFunction(max, UInt8)', fold: (column) => `max(${column})` },
  set: {
    type: 'SimpleAggregateFunction(groupUniqArrayArray, Array(String))',
    fold: (column) => `arrayDistinct(arrayFlatten(groupArrayIf(${column}, notEmpty(${column}))))`,
  },
  landing: { type: 'SimpleAggregateFunction(min, Nullable(String))', fold: (column) => `min(${column})` },
};

/** The stored columns after the key, as aggregates over a session's events. */
export const SESSION_AGGREGATES = {
  has_wallet: ['flag', `max(type IN ('wallet_detected', 'wallet_connected') OR wallet_provider IS NOT NULL)`],
  has_connected: ['flag', `max(type = 'wallet_connected')`],
  // A signature event without a stage is not signed.
  has_signed: ['flag', `max(type = 'signature' AND ifNull(sig_stage = 'signed', 0))`],
  submitted_txs: ['set', valueSet('tx_id', IS_SUBMITTED)],
  connect_ids: ['set', valueSet('id', `type = 'wallet_connected'`)],
  landing_campaign: ['landing', landing('utm_campaign')],
  landing_source: ['landing', landing('utm_source')],
  landing_medium: ['landing', landing('utm_medium')],
  landing_content: ['landing', landing('utm_content')],
  landing_term: ['landing', landing('utm_term')],
  countries: ['set', valueSet('country')],
  browsers: ['set', valueSet('browser')],
  wallet_providers: ['set', valueSet('wallet_provider')],
  utm_sources: ['set', valueSet('utm_source')],
  utm_mediums: ['set', valueSet('utm_medium')],
  utm_campaigns: ['set', valueSet('utm_campaign')],
  utm_contents: ['set', valueSet('utm_content')],
  utm_terms: ['set', valueSet('utm_term')],
} as const satisfies Record<string, readonly [Kind, string]>;
export type SessionAggregate = keyof typeof SESSION_AGGREGATES;

const AGGREGATE_NAMES = Object.keys(SESSION_AGGREGATES) as SessionAggregate[];

/** `name`'s rows of one session folded into one, over `column`. */
export const fold = (name: SessionAggregate, column: string) =>
  KINDS[SESSION_AGGREGATES[name][0]].fold(column);

/** Aggregates over events, each named `${prefix}${name}`. */
export const aggregatesOverEvents = (names: readonly SessionAggregate[], prefix = '') =>
  names.map((name) => `${SESSION_AGGREGATES[name][1]} AS ${prefix}${name}`).join(',\n         ');

/** The UTC day an event falls in. */
const EVENT_DAY = "toDate(ts, 'UTC')";

export const CREATE_SESSION_DAYS = `CREATE TABLE IF NOT EXISTS session_days (
  project_id String,
  day Date,
  session_id String,
  user_id String,
  ${AGGREGATE_NAMES.map((name) => `${name} ${KINDS[SESSION_AGGREGATES[name][0]].type}`).join(',\n  ')}
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, day, session_id, user_id)`;

/** The rows of `session_days` for the events a SELECT reads (`where`: more conditions on them). */
export const sessionDaysOfEvents = (where = '') =>
  `SELECT project_id, ${EVENT_DAY} AS day, session_id, user_id,
         ${aggregatesOverEvents(AGGREGATE_NAMES)}
    FROM events${where ? `\n   WHERE ${where}` : ''}
   GROUP BY project_id, day, session_id, user_id`;

/**
 * What the copy of the stored events may hold in memory before ClickHouse spills its GROUP BY to disk:
 * every session-day of the store is a group with ten sets, and in one pass over 10 M events that took
 * chdb past 10 GB (ADR 030). A view's GROUP BY over one load's block stays small.
 */
const COPY_GROUP_BY_BYTES = 1_000_000_000;

/**
 * The table, the view that feeds it, then the rows already stored: an event loaded while the schema
 * migrates reaches the table through the view, the copy or both, which folds to the same row; a
 * migration repeated after a failure copies again, harmlessly. The copy reads `events` without FINAL: a
 * duplicate changes no minimum, maximum or set.
 */
export const SESSION_DAYS_STATEMENTS = [
  CREATE_SESSION_DAYS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS session_days_of_events TO session_days AS
${sessionDaysOfEvents()}`,
  `INSERT INTO session_days ${sessionDaysOfEvents()}
SETTINGS max_bytes_before_external_group_by = ${COPY_GROUP_BY_BYTES}`,
];

/** The (day, session, user) keys of the events a condition names: the rows a wallet's delete touches. */
export const sessionDayKeysOf = (where: string) =>
  `SELECT DISTINCT toString(${EVENT_DAY}) AS day, session_id, user_id FROM events WHERE ${where}`;

export type SessionDayKey = { day: string; session_id: string; user_id: string };

/**
 * Parameters `keys_from`, `keys_to` (the first and last day, YYYY-MM-DD) and the keys as three arrays of
 * text, zipped back into tuples in SQL.
 */
export function sessionDayKeyParams(keys: readonly SessionDayKey[]) {
  const days = keys.map((key) => key.day).sort();
  return {
    keys_from: days[0] ?? '1970-01-01',
    keys_to: days[days.length - 1] ?? '1970-01-01',
    key_days: keys.map((key) => key.day),
    key_sessions: keys.map((key) => key.session_id),
    key_users: keys.map((key) => key.user_id),
  };
}

const KEYS = 'arrayZip({key_days:Array(String)}, {key_sessions:Array(String)}, {key_users:Array(String)})';

/** The `session_days` rows of those keys. */
export const IN_KEYS = `project_id = {project:String}
     AND day >= toDate({keys_from:String}) AND day <= toDate({keys_to:String})
     AND has(${KEYS}, (toString(day), session_id, user_id))`;

/** The events of those keys. */
export const EVENTS_IN_KEYS = `project_id = {project:String}
     AND ts >= toDateTime64({keys_from:String}, 3, 'UTC')
     AND ts < toDateTime64({keys_to:String}, 3, 'UTC') + INTERVAL 1 DAY
     AND has(${KEYS}, (toString(${EVENT_DAY}), session_id, user_id))`;

/** The UTC day of a parameter of epoch ms, and the events of that day. */
export const dayOfParam = (param: string) =>
  `toDate(fromUnixTimestamp64Milli({${param}:Int64}, 'UTC'), 'UTC')`;
export const eventsOnDayOf = (param: string) =>
  `project_id = {project:String} AND ${EVENT_DAY} = ${dayOfParam(param)}`;

/** The value sets the filter options read, in `user_value_sets`' key order. */
export const VALUE_SETS = [
  'countries',
  'utm_terms',
  'utm_sources',
  'utm_mediums',
  'utm_campaigns',
  'utm_contents',
  'browsers',
  'wallet_providers',
] as const satisfies readonly SessionAggregate[];

/**
 * `user_value_sets`: per (project, user, the eight value sets of a session-day), the UTC days on which one
 * of the user's session-days held exactly those sets (docs/decisions/039-clickhouse-attribution-and-filter-options.md).
 * A user's sets mostly hold from day to day, so a project's rows are about one per user, where
 * `session_days` has one per user and day: the filter options read these instead. Fed by a view on
 * `session_days`, so every row that reaches `session_days` (a load through its view on `events`, a
 * rebuild after a delete, the copy of a migration) reaches this table too, in the same statement. The
 * sets are sorted (the same sets in another order are the same key); the days are a set, folded by
 * merges. A user has a value on a day when one of their rows with that day holds it: a row stored twice,
 * or the sets of one session-day split over several loads (each a row of its own), say the same.
 */
export const CREATE_USER_VALUE_SETS = `CREATE TABLE IF NOT EXISTS user_value_sets (
  project_id String,
  user_id String,
  ${VALUE_SETS.map((set) => `${set} Array(String)`).join(',\n  ')},
  days SimpleAggregateFunction(groupUniqArrayArray, Array(Date))
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, user_id, ${VALUE_SETS.join(', ')})`;

/** The rows of `user_value_sets` for the `session_days` rows a SELECT reads (`where`: conditions on them). */
export const userValueSetsOfSessionDays = (where = '') =>
  `SELECT project_id, user_id, ${VALUE_SETS.join(', ')}, groupUniqArray(day) AS days
    FROM (SELECT project_id, user_id, day, ${VALUE_SETS.map((set) => `arraySort(${set}) AS ${set}`).join(', ')}
            FROM session_days${where ? `\n           WHERE ${where}` : ''})
   GROUP BY project_id, user_id, ${VALUE_SETS.join(', ')}`;

/**
 * The table, the view that feeds it from `session_days`, then the rows of what `session_days` holds (a
 * row reaching both meanwhile is a duplicate, which says the same). The copy groups per (project, user,
 * sets): ClickHouse may spill that GROUP BY to disk, as `session_days`' own copy.
 */
export const USER_VALUE_SETS_STATEMENTS = [
  CREATE_USER_VALUE_SETS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS user_value_sets_of_session_days TO user_value_sets AS
${userValueSetsOfSessionDays()}`,
  `INSERT INTO user_value_sets ${userValueSetsOfSessionDays()}
SETTINGS max_bytes_before_external_group_by = ${COPY_GROUP_BY_BYTES}`,
];
