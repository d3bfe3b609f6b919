import { SUBMITTED_STAGES, sqlList } from '../domain.ts';
import type { DerivedTable } from './derived-table.ts';

/**
 * Distinct non-null values, sorted: a set as a list, the same however it was built. `list_distinct` over
 * a plain `list` rather than `list(DISTINCT …)`: a DISTINCT aggregate gets its own hash table per group
 * by, which cost the acquisition queries about 10 ms each even over a handful of events.
 */
const valueSet = (column: string, where = 'true') =>
  `list_sort(coalesce(list_distinct(list(${column}) FILTER (WHERE ${column} IS NOT NULL AND ${where})), []::VARCHAR[]))`;
/** A stored set and the same set of an upsert's rows, merged. */
const mergedSet = (column: string) => `list_sort(list_distinct(list_concat(${column}, excluded.${column})))`;

/** Landing UTM columns of a session, by the attribution dimension that reads them. */
export const LANDING_COLUMNS = {
  campaign: ['landing_campaign', 'utm_campaign'],
  source: ['landing_source', 'utm_source'],
  medium: ['landing_medium', 'utm_medium'],
  content: ['landing_content', 'utm_content'],
  term: ['landing_term', 'utm_term'],
} as const;

/** Value-set columns of a session, by the events column whose values they hold. */
export const SESSION_VALUE_SETS = {
  country: 'countries',
  browser: 'browsers',
  wallet_provider: 'wallet_providers',
  utm_source: 'utm_sources',
  utm_medium: 'utm_mediums',
  utm_campaign: 'utm_campaigns',
  utm_content: 'utm_contents',
  utm_term: 'utm_terms',
} as const;

/**
 * The `sessions` columns after its key, as aggregates over a session's events: the same expressions
 * maintain the table and, in the acquisition queries, recompute a session the range cuts through.
 */
const SESSION_AGGREGATE_COLUMNS: readonly (readonly [string, string])[] = [
  ['first_ts', 'min(ts)'],
  ['last_ts', 'max(ts)'],
  ['has_wallet', `bool_or(type IN ('wallet_detected', 'wallet_connected') OR wallet_provider IS NOT NULL)`],
  ['has_connected', `bool_or(type = 'wallet_connected')`],
  // A signature event without a stage is not signed (and must not make the flag NULL).
  ['has_signed', `bool_or(type = 'signature' AND coalesce(sig_stage = 'signed', false))`],
  ['submitted_txs', valueSet('tx_id', `type = 'tx' AND tx_stage IN ${sqlList(SUBMITTED_STAGES)}`)],
  // The SDK sends the landing UTM on every event of a session; blank counts as absent.
  ...Object.values(LANDING_COLUMNS).map(
    ([name, column]) => [name, `min(NULLIF(trim(${column}), ''))`] as const,
  ),
  ...Object.entries(SESSION_VALUE_SETS).map(([column, name]) => [name, valueSet(column)] as const),
  ['connect_ids', valueSet('id', `type = 'wallet_connected'`)],
];

const aggregatesOf = (columns: readonly (readonly [string, string])[]) =>
  columns.map(([name, aggregate]) => `${aggregate} AS ${name}`).join(',\n         ');

/** Every aggregate column of `sessions`, for a SELECT grouped by session. */
export const SESSION_AGGREGATES = aggregatesOf(SESSION_AGGREGATE_COLUMNS);

/**
 * A user's key: the upper 64 bits of the MD5 of its id. `sessions` and `keyed_user_lives` store it beside the
 * id, so that the acquisition questions group sessions by a number rather than a string (ADR 040). Two
 * users of a project may share a key (unlikely, or on purpose: user ids come from the SDK): the questions
 * check `keyed_user_lives` first and group by the id when they do (session-rows.ts). MD5, not `hash()`: DuckDB's
 * hash may change between versions, and a stored key must equal one computed later.
 */
export const userKeyOf = (column: string) => `(md5_number(${column}) >> 64)::UBIGINT`;

/**
 * The last `sessions` columns: read from its key and its sets, stored so that the queries read a number
 * or one string instead of a string key or lists. `value_sets` is every value set as one JSON array, in
 * SESSION_VALUE_SETS order: equal strings mean equal sets, so the filter options count distinct
 * (user, value_sets). Those of the key (no sets) never change once the row exists.
 */
const SESSION_SUMMARIES: readonly (readonly [string, (set: (name: string) => string) => string, string[]])[] =
  [
    ['submitted_count', (set) => `len(${set('submitted_txs')})`, ['submitted_txs']],
    ['first_submitted_tx', (set) => `list_min(${set('submitted_txs')})`, ['submitted_txs']],
    ['last_submitted_tx', (set) => `list_max(${set('submitted_txs')})`, ['submitted_txs']],
    ['connects', (set) => `len(${set('connect_ids')})`, ['connect_ids']],
    [
      'value_sets',
      (set) => `to_json([${Object.values(SESSION_VALUE_SETS).map(set).join(', ')}])::VARCHAR`,
      Object.values(SESSION_VALUE_SETS),
    ],
    ['user_key', () => userKeyOf('user_id'), []],
  ];

/** The summaries over a relation holding SESSION_AGGREGATES' columns. */
export const SESSION_SUMMARY_COLUMNS = SESSION_SUMMARIES.map(
  ([name, summary]) => `${summary((set) => set)} AS ${name}`,
).join(', ');

/** A `sessions` column a query may read (after the key). */
export type SessionColumn = string;

/**
 * Some `sessions` columns recomputed over events: the aggregates (grouped by session) that they need,
 * and the projection over those aggregates that gives exactly `columns`. The acquisition queries plan
 * only what they read, since planning the whole set of aggregates costs several milliseconds per query.
 */
export function sessionColumnsOverEvents(columns: readonly SessionColumn[]): {
  aggregates: string;
  projection: string;
} {
  const summaries = new Map(SESSION_SUMMARIES.map((summary) => [summary[0], summary] as const));
  const needed = new Set<string>();
  for (const column of columns) {
    const summary = summaries.get(column);
    if (summary) for (const set of summary[2]) needed.add(set);
    else needed.add(column);
  }
  const aggregates = SESSION_AGGREGATE_COLUMNS.filter(([name]) => needed.has(name));
  const unknown = [...needed].filter((name) => !aggregates.some(([known]) => known === name));
  if (unknown.length > 0) throw new Error(`not a sessions column: ${unknown.join(', ')}`);
  return {
    aggregates: aggregatesOf(aggregates),
    projection: columns
      .map((column) => {
        const summary = summaries.get(column);
        return summary ? `${summary[1]((set) => set)} AS ${column}` : column;
      })
      .join(', '),
  };
}

/** `value_sets` as a list of lists, in SESSION_VALUE_SETS order. */
export const parseValueSets = (column: string) => `from_json(${column}, '[["VARCHAR"]]')`;

const SESSION_SETS = ['submitted_txs', ...Object.values(SESSION_VALUE_SETS), 'connect_ids'];

/** A known session's times, flags and landing values merged with a load's row for it. */
const SESSION_SCALARS_MERGE = [
  'first_ts = least(first_ts, excluded.first_ts)',
  'last_ts = greatest(last_ts, excluded.last_ts)',
  'has_wallet = has_wallet OR excluded.has_wallet',
  'has_connected = has_connected OR excluded.has_connected',
  'has_signed = has_signed OR excluded.has_signed',
  ...Object.values(LANDING_COLUMNS).map(([name]) => `${name} = least(${name}, excluded.${name})`),
];

/** When SESSION_SCALARS_MERGE changes a value: `least` and `greatest` ignore a null. */
const SESSION_SCALARS_CHANGE = [
  'excluded.first_ts < first_ts',
  'excluded.last_ts > last_ts',
  ...['has_wallet', 'has_connected', 'has_signed'].map((flag) => `(excluded.${flag} AND NOT ${flag})`),
  ...Object.values(LANDING_COLUMNS).map(
    ([name]) => `(excluded.${name} IS NOT NULL AND (${name} IS NULL OR excluded.${name} < ${name}))`,
  ),
];

/**
 * A known session merged with a load's row for it, written only where something changes: a scalar
 * moves or a set gains a member (writing list columns is what an upsert costs in DuckDB). Where nothing
 * changes the merge would give the stored row back (its sets are stored sorted and distinct), so leaving
 * the row is the same. One statement, which reads each stored row once: two upserts (the scalars on
 * every load, the sets where one gains) cost 3.4 µs per event in the bench's mix and 5.9 where every
 * session goes on from the previous load, this one 2.9 and 4.2 (ADR 023).
 */
const SESSION_MERGE = `ON CONFLICT (project_id, session_id, user_id) DO UPDATE SET
    ${[
      ...SESSION_SCALARS_MERGE,
      ...SESSION_SETS.map((set) => `${set} = ${mergedSet(set)}`),
      ...SESSION_SUMMARIES.filter(([, , sets]) => sets.length > 0).map(
        ([name, summary]) => `${name} = ${summary(mergedSet)}`,
      ),
    ].join(',\n    ')}
    WHERE ${SESSION_SCALARS_CHANGE.join(' OR ')}
       OR NOT (${SESSION_SETS.map((set) => `list_has_all(${set}, excluded.${set})`).join(' AND ')})`;

/** `sessions`: one row per (session, user), its times, flags, landing UTM values and value sets (ADR 005, 023). */
export const SESSIONS: DerivedTable = {
  name: 'sessions',
  definedIn: 7,
  order: 'project_id, first_ts',
  rows: `SELECT *, ${SESSION_SUMMARY_COLUMNS}
  FROM (SELECT project_id, session_id, user_id,
               ${SESSION_AGGREGATES}
          FROM {source}
         GROUP BY project_id, session_id, user_id)`,
  onConflict: [SESSION_MERGE],
  // Sessions that begin in a load (all of them in the bench, most under real traffic: the SDK sends a
  // batch every 3 s) are inserted first with ON CONFLICT DO NOTHING, which reads no stored row; the
  // merge runs only when some session was known already.
  newRowsFirst: true,
};
