import { SUBMITTED_STAGES } from './sql.ts';

/**
 * `session_hours`: one row per (project, UTC hour, session, user) with what the acquisition questions
 * read of that session's events of that hour (docs/decisions/028-clickhouse-session-hours.md). An
 * AggregatingMergeTree fed by a materialized view on `events`: each insert adds a row per key of its
 * block, and merges fold the rows of one key with each column's function. Every column is a minimum, a
 * maximum or a set, so the same event stored twice (a retried load), a session's events spread over
 * several loads, or loads arriving out of order all fold to the same row. The questions fold again at read
 * time (GROUP BY), over the whole hours of their range, and compute the partial hours at its ends from
 * `events` with the very same aggregates (session-rows.ts).
 */

export const HOUR_MS = 3_600_000;

const IS_SUBMITTED = `type = 'tx' AND tx_id IS NOT NULL AND ifNull(tx_stage IN ${SUBMITTED_STAGES}, 0)`;

/** The distinct non-null values of an events column, as a plain Array(String). */
const valueSet = (column: string, where = `${column} IS NOT NULL`) =>
  `groupUniqArrayIf(toString(assumeNotNull(${column})), ${where})`;

/** Landing UTM of a session, by the attribution dimension: the SDK repeats it on every event; blank is absent. */
const landing = (column: string) => `min(nullIf(trimBoth(${column}), ''))`;

type Kind = 'flag' | 'set' | 'landing';

/** How a kind of column is stored, and how rows of one session fold into one (in merges and in reads). */
const KINDS: Record<Kind, { type: string; fold: string }> = {
  flag: { type: 'SimpleAggregateFunction(max, UInt8)', fold: 'max' },
  set: { type: 'SimpleAggregateFunction(groupUniqArrayArray, Array(String))', fold: 'groupUniqArrayArray' },
  landing: { type: 'SimpleAggregateFunction(min, Nullable(String))', fold: 'min' },
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

/** `name`'s rows folded into one: the function its kind merges with, over `column`. */
export const fold = (name: SessionAggregate, column: string) =>
  `${KINDS[SESSION_AGGREGATES[name][0]].fold}(${column})`;

/** Aggregates over events, each named `${prefix}${name}`. */
export const aggregatesOverEvents = (names: readonly SessionAggregate[], prefix = '') =>
  names.map((name) => `${SESSION_AGGREGATES[name][1]} AS ${prefix}${name}`).join(',\n         ');

/** The UTC hour an event falls in. */
const EVENT_HOUR = 'toStartOfHour(ts)';

export const CREATE_SESSION_HOURS = `CREATE TABLE IF NOT EXISTS session_hours (
  project_id String,
  hour DateTime('UTC'),
  session_id String,
  user_id String,
  ${AGGREGATE_NAMES.map((name) => `${name} ${KINDS[SESSION_AGGREGATES[name][0]].type}`).join(',\n  ')}
) ENGINE = AggregatingMergeTree
ORDER BY (project_id, hour, session_id, user_id)`;

/** The rows of `session_hours` for the events a SELECT reads (`where`: more conditions on them). */
export const sessionHoursOfEvents = (
  where = '',
) => `SELECT project_id, ${EVENT_HOUR} AS hour, session_id, user_id,
         ${aggregatesOverEvents(AGGREGATE_NAMES)}
    FROM events${where ? `\n   WHERE ${where}` : ''}
   GROUP BY project_id, hour, session_id, user_id`;

/**
 * The table, the view that feeds it, then the rows already stored: an event loaded while the schema
 * migrates reaches the table through the view, the copy or both, which folds to the same row; a
 * migration repeated after a failure copies again, harmlessly. The copy reads `events` without FINAL: a
 * duplicate changes no minimum, maximum or set.
 */
export const SESSION_HOURS_STATEMENTS = [
  CREATE_SESSION_HOURS,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS session_hours_of_events TO session_hours AS
${sessionHoursOfEvents()}`,
  `INSERT INTO session_hours ${sessionHoursOfEvents()}`,
];

/** The (hour, session, user) keys of the events a condition names: the rows a wallet's delete touches. */
export const sessionHourKeysOf = (where: string) =>
  `SELECT DISTINCT toUnixTimestamp(${EVENT_HOUR}) * 1000 AS hour_ms, session_id, user_id FROM events WHERE ${where}`;

export type SessionHourKey = { hour_ms: number; session_id: string; user_id: string };

/**
 * Parameters `keys_from`, `keys_to` (the first and last hour, epoch ms) and the keys as three arrays of
 * text (hours as epoch ms), zipped back into tuples in SQL.
 */
export function sessionHourKeyParams(keys: readonly SessionHourKey[]) {
  const hours = keys.map((key) => key.hour_ms);
  return {
    keys_from: Math.min(...hours),
    keys_to: Math.max(...hours),
    key_hours: hours.map(String),
    key_sessions: keys.map((key) => key.session_id),
    key_users: keys.map((key) => key.user_id),
  };
}

const KEYS = 'arrayZip({key_hours:Array(String)}, {key_sessions:Array(String)}, {key_users:Array(String)})';

/** The `session_hours` rows of those keys. */
export const IN_KEYS = `project_id = {project:String}
     AND hour >= fromUnixTimestamp64Milli({keys_from:Int64}, 'UTC') AND hour <= fromUnixTimestamp64Milli({keys_to:Int64}, 'UTC')
     AND has(${KEYS}, (toString(toInt64(toUnixTimestamp(hour)) * 1000), session_id, user_id))`;

/** The events of those keys. */
export const EVENTS_IN_KEYS = `project_id = {project:String}
     AND ts >= fromUnixTimestamp64Milli({keys_from:Int64}, 'UTC') AND ts < fromUnixTimestamp64Milli({keys_to:Int64} + ${HOUR_MS}, 'UTC')
     AND has(${KEYS}, (toString(toInt64(toUnixTimestamp(${EVENT_HOUR})) * 1000), session_id, user_id))`;

/** The hour of a parameter of epoch ms, and the events of that hour. */
export const hourOfParam = (param: string) =>
  `toStartOfHour(fromUnixTimestamp64Milli({${param}:Int64}, 'UTC'))`;
export const eventsInHourOf = (param: string) =>
  `project_id = {project:String} AND ${EVENT_HOUR} = ${hourOfParam(param)}`;
