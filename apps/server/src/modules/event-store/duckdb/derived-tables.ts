import type { DuckDBConnection } from '@duckdb/node-api';
import { INCIDENT_SOURCES, SUBMITTED_STAGES, sqlList } from '../domain.ts';
import { CREATE_DERIVED_TABLES, DERIVED_TABLES_VERSION } from './schema.ts';
import { FAILED_NEAR, SENDING_OCCURRENCE, STAGE_KEY } from './sql.ts';

/**
 * Keeps the derived tables of schema.ts in step with `events` (docs/decisions/005-derived-tables.md).
 * Every statement reads a relation `{source}` with the events' columns: the rows of one insert (the
 * temporary `incoming_events`) or the whole `events` table (a rebuild). Each one only adds members to
 * sets or moves minima and maxima, so applying an event twice, or out of order, gives the same rows.
 */

/** The stages that make a transaction submitted (docs/analytics.md). */

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
 * A user's key: the upper 64 bits of the MD5 of its id. `sessions` and `user_lives` store it beside the
 * id, so that the acquisition questions group sessions by a number rather than a string (ADR 040). Two
 * users of a project may share a key (unlikely, or on purpose: user ids come from the SDK): the questions
 * check `user_lives` first and group by the id when they do (session-rows.ts). MD5, not `hash()`: DuckDB's
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

/** The incident occurrences among `{source}`'s rows: what the summaries count (incident-summaries.ts). */
const INCIDENT_OCCURRENCES_OF = `(SELECT * FROM {source}
     WHERE type = 'error' AND incident_id IS NOT NULL AND error_source IN ${sqlList(INCIDENT_SOURCES)})`;
/** The failed and reverted stages among `{source}`'s rows, as `transaction_failures` holds them. */
const FAILURES_OF = `(SELECT * FROM {source}
     WHERE type = 'tx' AND tx_stage IN ('failed', 'reverted') AND tx_id IS NOT NULL)`;
/** The latest occurrence's figures `incident_lives` keeps: its name, the occurrences' column. */
const LATEST_FIGURES = [
  ['title', 'error_message'],
  ['code', 'error_code'],
  ['method', 'rpc_method'],
] as const;
/** Whether a load's `incident_lives` row has a later latest time than the stored one (none: NULL). */
const LATER = `excluded.last_ts > coalesce(last_ts, '-infinity'::TIMESTAMP)`;
const SAME_TIME = 'excluded.last_ts = last_ts';
/** Likewise for the latest occurrence with a wallet (none: NULL). */
const LATER_WALLET = `(excluded.wallet_ts IS NOT NULL AND (wallet_ts IS NULL
       OR (excluded.wallet_ts, excluded.wallet_id) > (wallet_ts, wallet_id)))`;

/**
 * Per derived table: its rows as a SELECT over `{source}` (one row per key), what the upserts of a load
 * do with a key already stored (one statement each), the order compaction rewrites it in, and the
 * DERIVED_TABLES_VERSION that gave it its present definition (a file of an older version rebuilds it).
 * Tables defined before version 4 say 4: a file older than that rebuilds all of them, as it always did.
 */
const DERIVED_TABLES = [
  {
    name: 'wallet_firsts',
    definedIn: 4,
    order: 'project_id, first_seen',
    // The earliest connection wins; the smaller session id breaks a tie, so the answer is stable. Only
    // rows that change are written (most loads see wallets already known).
    rows: `SELECT project_id, wallet_address, min(ts) AS first_seen,
         min(ts) FILTER (WHERE type = 'wallet_connected') AS first_connected,
         arg_min(session_id, (ts, session_id)) FILTER (WHERE type = 'wallet_connected') AS first_connected_session
    FROM {source} WHERE wallet_address IS NOT NULL
   GROUP BY project_id, wallet_address`,
    onConflict: [
      `ON CONFLICT (project_id, wallet_address) DO UPDATE SET
    first_seen = least(first_seen, excluded.first_seen),
    first_connected = least(first_connected, excluded.first_connected),
    first_connected_session = CASE
      WHEN excluded.first_connected IS NULL THEN first_connected_session
      WHEN first_connected IS NULL THEN excluded.first_connected_session
      WHEN (excluded.first_connected, excluded.first_connected_session) < (first_connected, first_connected_session)
        THEN excluded.first_connected_session
      ELSE first_connected_session END
    WHERE excluded.first_seen < first_seen OR (excluded.first_connected IS NOT NULL AND (first_connected IS NULL
      OR (excluded.first_connected, excluded.first_connected_session) < (first_connected, first_connected_session)))`,
    ],
  },
  {
    name: 'user_days',
    definedIn: 4,
    order: 'project_id, day',
    rows: 'SELECT DISTINCT project_id, ts::DATE AS day, user_id FROM {source}',
    onConflict: ['ON CONFLICT DO NOTHING'],
  },
  {
    name: 'user_lives',
    definedIn: 7,
    order: 'project_id, first_day',
    // Written only when a load moves a user's first or last day (most loads see users known already).
    rows: `SELECT project_id, user_id, min(ts)::DATE AS first_day, max(ts)::DATE AS last_day,
         ${userKeyOf('user_id')} AS user_key
    FROM {source}
   GROUP BY project_id, user_id`,
    onConflict: [
      `ON CONFLICT (project_id, user_id) DO UPDATE SET
    first_day = least(first_day, excluded.first_day),
    last_day = greatest(last_day, excluded.last_day)
    WHERE excluded.first_day < first_day OR excluded.last_day > last_day`,
    ],
  },
  {
    name: 'wallet_days',
    definedIn: 4,
    order: 'project_id, day',
    rows: 'SELECT DISTINCT project_id, ts::DATE AS day, wallet_address FROM {source} WHERE wallet_address IS NOT NULL',
    onConflict: ['ON CONFLICT DO NOTHING'],
  },
  {
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
  },
  {
    name: 'incident_occurrences',
    definedIn: 4,
    order: 'project_id, ts',
    rows: `SELECT project_id, id, incident_id, ts, user_id, session_id, wallet_address, error_source, error_message,
         error_stack, error_code, rpc_method
    FROM {source} WHERE type = 'error' AND incident_id IS NOT NULL`,
    onConflict: ['ON CONFLICT DO NOTHING'],
  },
  {
    name: 'transaction_failures',
    definedIn: 4,
    order: 'project_id, ts',
    rows: `SELECT project_id, id, tx_id, session_id, ts
    FROM {source} WHERE type = 'tx' AND tx_stage IN ('failed', 'reverted') AND tx_id IS NOT NULL`,
    onConflict: ['ON CONFLICT DO NOTHING'],
  },
  {
    name: 'transaction_summaries',
    definedIn: 4,
    order: 'project_id, requested_at',
    // The latest stage by STAGE_KEY; two stages of the same key (two outcomes in one millisecond) are
    // ordered by name, so that every order of loading gives the same row.
    rows: `SELECT project_id, tx_id, min(ts) AS requested_at, max(ts) AS last_ts,
         max(${STAGE_KEY}) AS status_key, arg_max(tx_stage, (${STAGE_KEY}, tx_stage)) AS status,
         bool_or(tx_stage IN ${sqlList(SUBMITTED_STAGES)}) AS is_submitted
    FROM {source} WHERE type = 'tx' AND tx_id IS NOT NULL
   GROUP BY project_id, tx_id`,
    onConflict: [
      `ON CONFLICT (project_id, tx_id) DO UPDATE SET
    requested_at = least(requested_at, excluded.requested_at),
    last_ts = greatest(last_ts, excluded.last_ts),
    status = CASE WHEN (excluded.status_key, excluded.status) > (status_key, status) THEN excluded.status
      ELSE status END,
    status_key = greatest(status_key, excluded.status_key),
    is_submitted = is_submitted OR excluded.is_submitted
    WHERE excluded.requested_at < requested_at OR excluded.last_ts > last_ts
       OR (excluded.status_key, excluded.status) > (status_key, status)
       OR (excluded.is_submitted AND NOT is_submitted)`,
    ],
  },
  {
    name: 'incident_lives',
    definedIn: 6,
    order: 'project_id, incident_id',
    // What the summaries read from the occurrences at the latest time (incident-summaries.ts): the
    // greatest id there, and per figure the greatest id there with a value and that value. A load's row
    // replaces them when its latest time is later, adds to them when it is the same: every order of
    // loading gives the same row.
    rows: `SELECT project_id, incident_id, min(ts) AS first_any_ts,
         min(error_source) FILTER (WHERE counted) AS error_source,
         min(ts) FILTER (WHERE counted) AS first_ts,
         max(ts) FILTER (WHERE counted) AS last_ts,
         max(id) FILTER (WHERE is_latest) AS latest_id,
         ${LATEST_FIGURES.map(
           ([name, column]) =>
             `max(id) FILTER (WHERE is_latest AND ${column} IS NOT NULL) AS ${name}_id,
         arg_max(${column}, id) FILTER (WHERE is_latest AND ${column} IS NOT NULL) AS ${name}`,
         ).join(',\n         ')},
         max(ts) FILTER (WHERE counted AND wallet_address IS NOT NULL) AS wallet_ts,
         arg_max(id, (ts, id)) FILTER (WHERE counted AND wallet_address IS NOT NULL) AS wallet_id,
         arg_max(wallet_address, (ts, id)) FILTER (WHERE counted AND wallet_address IS NOT NULL) AS wallet
    FROM (SELECT *, counted AND ts = max(ts) FILTER (WHERE counted) OVER (PARTITION BY project_id, incident_id) AS is_latest
            FROM (SELECT *, coalesce(error_source IN ${sqlList(INCIDENT_SOURCES)}, false) AS counted
                    FROM {source} WHERE type = 'error' AND incident_id IS NOT NULL))
   GROUP BY project_id, incident_id`,
    onConflict: [
      `ON CONFLICT (project_id, incident_id) DO UPDATE SET
    first_any_ts = least(first_any_ts, excluded.first_any_ts),
    error_source = least(error_source, excluded.error_source),
    first_ts = least(first_ts, excluded.first_ts),
    latest_id = CASE WHEN ${LATER} THEN excluded.latest_id
      WHEN ${SAME_TIME} THEN greatest(latest_id, excluded.latest_id) ELSE latest_id END,
    ${LATEST_FIGURES.flatMap(([name]) =>
      [`${name}_id`, name].map(
        (column) => `${column} = CASE WHEN ${LATER} THEN excluded.${column}
      WHEN ${SAME_TIME} AND excluded.${name}_id > coalesce(${name}_id, '') THEN excluded.${column}
      ELSE ${column} END`,
      ),
    ).join(',\n    ')},
    last_ts = greatest(last_ts, excluded.last_ts),
    ${['wallet_id', 'wallet']
      .map((column) => `${column} = CASE WHEN ${LATER_WALLET} THEN excluded.${column} ELSE ${column} END`)
      .join(',\n    ')},
    wallet_ts = greatest(wallet_ts, excluded.wallet_ts)`,
    ],
  },
  {
    name: 'incident_members',
    definedIn: 6,
    order: 'project_id, incident_id, kind',
    // After `incident_occurrences` and `transaction_failures` (this list's order is the load's): a failed
    // transaction pairs with an occurrence of the same load or of an earlier one, and the other way round.
    rows: `SELECT DISTINCT * FROM (
      SELECT project_id, incident_id, 'occurrence' AS kind, id AS member FROM ${INCIDENT_OCCURRENCES_OF}
      UNION ALL
      SELECT project_id, incident_id, 'user', user_id FROM ${INCIDENT_OCCURRENCES_OF}
      UNION ALL
      SELECT project_id, incident_id, 'wallet', wallet_address FROM ${INCIDENT_OCCURRENCES_OF}
       WHERE wallet_address IS NOT NULL
      UNION ALL
      SELECT project_id, incident_id, 'day', strftime(ts, '%Y-%m-%d') FROM ${INCIDENT_OCCURRENCES_OF}
      UNION ALL
      SELECT o.project_id, o.incident_id, 'failed_tx', t.tx_id
        FROM ${INCIDENT_OCCURRENCES_OF} o
        JOIN transaction_failures t ON t.project_id = o.project_id AND ${FAILED_NEAR('o', 't')}
       WHERE ${SENDING_OCCURRENCE('o')}
      UNION ALL
      SELECT o.project_id, o.incident_id, 'failed_tx', t.tx_id
        FROM incident_occurrences o
        JOIN ${FAILURES_OF} t ON t.project_id = o.project_id AND ${FAILED_NEAR('o', 't')}
       WHERE o.error_source IN ${sqlList(INCIDENT_SOURCES)} AND ${SENDING_OCCURRENCE('o')}
    )`,
    onConflict: ['ON CONFLICT DO NOTHING'],
  },
] as const;

export const DERIVED_TABLE_NAMES: readonly string[] = DERIVED_TABLES.map((table) => table.name);

/**
 * The rows of one insert, as a relation the upserts read: the store fills it (from rows records or SDK
 * batch records), inserts it into `events` and applies it here, in one transaction.
 */
export const INCOMING_EVENTS = 'incoming_events';
/**
 * Each load creates `incoming_events` afresh and drops it before it commits. Emptied with DELETE instead,
 * a temporary table keeps every row group it ever held (DuckDB reclaims deleted rows only when a table
 * is checkpointed, which temporary tables never are): the writer's memory grew by each load's rows, and
 * every scan of the table by the upserts walked all of them.
 */
export const CREATE_INCOMING = `CREATE OR REPLACE TEMP TABLE ${INCOMING_EVENTS} AS SELECT * FROM events LIMIT 0`;
export const DROP_INCOMING = `DROP TABLE IF EXISTS ${INCOMING_EVENTS}`;

type DerivedTable = (typeof DERIVED_TABLES)[number];

type Upsert = {
  table: string;
  step: string;
  sql: string;
  /** `staged`: fills the table's staged rows; `new rows`: inserts those of new keys, and when that is all of them the table's later statements are skipped. */
  role?: 'staged' | 'new rows';
};

/**
 * The statements of a load for one table: its rows of `source` merged into it. A table that inserts its
 * new rows first (`sessions`) gets its rows computed once, into a temporary table both statements read:
 * the aggregation is what costs.
 */
function upsertsFrom(table: DerivedTable, source: string): Upsert[] {
  const rows = table.rows.replaceAll('{source}', source);
  const [onConflict] = table.onConflict;
  if (!('newRowsFirst' in table)) {
    return [{ table: table.name, step: table.name, sql: `INSERT INTO ${table.name} ${rows} ${onConflict}` }];
  }
  const staged = `incoming_${table.name}`;
  return [
    {
      table: table.name,
      step: `${table.name}: aggregate`,
      sql: `CREATE OR REPLACE TEMP TABLE ${staged} AS ${rows}`,
      role: 'staged',
    },
    {
      table: table.name,
      step: `${table.name}: new rows`,
      sql: `INSERT INTO ${table.name} SELECT * FROM ${staged} ON CONFLICT DO NOTHING`,
      role: 'new rows',
    },
    {
      table: table.name,
      step: `${table.name}: merge`,
      sql: `INSERT INTO ${table.name} SELECT * FROM ${staged} ${onConflict}`,
    },
  ];
}

/** The CREATE TABLE statement of a derived table (schema.ts). */
function ddlOf(name: string): string {
  const ddl = CREATE_DERIVED_TABLES.find((text) => text.includes(`EXISTS ${name} (`));
  if (!ddl) throw new Error(`no DDL for ${name}`);
  return ddl;
}

/** Creates the derived tables a file lacks. */
export async function createDerivedTables(connection: DuckDBConnection): Promise<void> {
  for (const ddl of CREATE_DERIVED_TABLES) await connection.run(ddl);
}

/**
 * Empties the derived tables (all, or those named) and fills them again from `events`, in the caller's
 * transaction: how a file written before they existed (or before their definition changed) gets them,
 * and how the analytics bench builds them after generating its events.
 */
export async function rebuildDerivedTables(
  connection: DuckDBConnection,
  names: readonly string[] = DERIVED_TABLE_NAMES,
): Promise<void> {
  for (const table of DERIVED_TABLES.filter(({ name }) => names.includes(name))) {
    // Dropped and created again rather than emptied: an older version may have other columns, and
    // deleting millions of indexed rows is slower than writing them. Filled already clustered.
    await connection.run(`DROP TABLE IF EXISTS ${table.name}`);
    await connection.run(ddlOf(table.name));
    await connection.run(
      `INSERT INTO ${table.name} SELECT * FROM (${table.rows.replaceAll('{source}', 'events')}) ORDER BY ${table.order}`,
    );
  }
  await connection.run('DELETE FROM derived_tables_version');
  await connection.run(`INSERT INTO derived_tables_version VALUES (${DERIVED_TABLES_VERSION})`);
}

/**
 * The tables a file of derived-table version `version` must rebuild: those defined after it, or all of
 * them when it has none (a file from before the derived tables, or one whose version was lost).
 */
export function outdatedDerivedTables(version: number | null): string[] {
  return DERIVED_TABLES.filter((table) => version === null || table.definedIn > version).map(
    (table) => table.name,
  );
}

/**
 * On start-up: creates the derived tables and rebuilds those missing or outdated (a version change
 * rebuilds only the tables it changed: for 10 M events, `user_lives` of version 5 takes seconds, all of
 * them minutes). Answers the tables it rebuilt.
 */
export async function ensureDerivedTables(connection: DuckDBConnection): Promise<string[]> {
  await createDerivedTables(connection);
  const reader = await connection.runAndReadAll('SELECT max(version) AS version FROM derived_tables_version');
  const version = reader.getRowObjectsJS()[0]?.version;
  if (version === DERIVED_TABLES_VERSION) return [];
  const outdated = outdatedDerivedTables(version == null ? null : Number(version));
  await inTransaction(connection, () => rebuildDerivedTables(connection, outdated));
  return outdated;
}

/** Runs `work` in one transaction on `connection`: all of it or none of it. */
export async function inTransaction<T>(connection: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await connection.run('BEGIN TRANSACTION');
  try {
    const result = await work();
    await connection.run('COMMIT');
    return result;
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

export type DerivedTableWriter = {
  /**
   * Applies the rows in `incoming_events` to every derived table; call it in the insert's transaction.
   * `timed` measures each table's upserts (the loader bench's breakdown).
   */
  apply(timed?: <T>(step: string, work: () => Promise<T>) => Promise<T>): Promise<void>;
};

/**
 * The upserts for the store's writer connection. Not prepared: a statement planned while
 * `incoming_events` was empty keeps that plan's statistics, and DuckDB then packs the grouping keys
 * (project, wallet, session ids) into too narrow integers and stores garbage. Planning each time costs
 * about a millisecond per insert.
 */
export async function prepareDerivedTableWriter(connection: DuckDBConnection): Promise<DerivedTableWriter> {
  await connection.run(CREATE_INCOMING);
  const upserts = DERIVED_TABLES.flatMap((table) => upsertsFrom(table, INCOMING_EVENTS));
  const staged = DERIVED_TABLES.filter((table) => 'newRowsFirst' in table).map(
    (table) => `incoming_${table.name}`,
  );
  return {
    async apply(timed = (_step, work) => work()) {
      let stagedRows = 0;
      let isDone: string | undefined;
      for (const { table, step, sql, role } of upserts) {
        if (table === isDone) continue;
        if (role === 'staged') {
          await timed(step, () => connection.run(sql));
          const count = await connection.runAndReadAll(`SELECT count(*) FROM incoming_${table}`);
          stagedRows = Number(count.getRows()[0]?.[0] ?? 0);
          continue;
        }
        const { rowsChanged } = await timed(step, () => connection.run(sql));
        if (role === 'new rows' && rowsChanged === stagedRows) isDone = table;
      }
      // Not kept until the next load (see CREATE_INCOMING).
      for (const name of staged) await connection.run(`DROP TABLE IF EXISTS ${name}`);
    },
  };
}

/** Removes a project's rows from every derived table (with its events, in the caller's transaction). */
export async function deleteDerivedRows(connection: DuckDBConnection, projectId: string): Promise<void> {
  for (const name of DERIVED_TABLE_NAMES) {
    await connection.run(`DELETE FROM ${name} WHERE project_id = $project`, { project: projectId });
  }
}

/**
 * Derives a project's rows of every table again from its events, in the caller's transaction: after
 * events were deleted, since sets, minima and firsts cannot be taken back one event at a time.
 */
export async function deriveProjectAgain(connection: DuckDBConnection, projectId: string): Promise<void> {
  await deleteDerivedRows(connection, projectId);
  const source = '(SELECT * FROM events WHERE project_id = $project)';
  for (const table of DERIVED_TABLES) {
    await connection.run(`INSERT INTO ${table.name} ${table.rows.replaceAll('{source}', source)}`, {
      project: projectId,
    });
  }
}

/**
 * Rewrites every derived table clustered by project (and time), like compaction does for `events`, so
 * that a query's zone maps skip the other projects' rows. Runs in the compaction's transaction.
 */
export async function clusterDerivedTables(connection: DuckDBConnection): Promise<void> {
  for (const table of DERIVED_TABLES) {
    await connection.run(`DROP TABLE IF EXISTS ${table.name}_next`);
    await connection.run(ddlOf(table.name).replace(`IF NOT EXISTS ${table.name} (`, `${table.name}_next (`));
    await connection.run(
      `INSERT INTO ${table.name}_next SELECT * FROM ${table.name} ORDER BY ${table.order}`,
    );
    await connection.run(`DROP TABLE ${table.name}`);
    await connection.run(`ALTER TABLE ${table.name}_next RENAME TO ${table.name}`);
  }
}
