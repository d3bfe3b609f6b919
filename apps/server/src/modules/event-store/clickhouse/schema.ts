import { z } from 'zod';
import { type ColumnKind, EVENT_COLUMNS, type EventColumnName, type Source } from '../event-row.ts';
import { type ClickHouse, quoteIdentifier } from './client.ts';
import { CONTRACT_DAYS_STATEMENTS } from './contract-days.ts';
import { CUSTOM_EVENTS_STATEMENTS } from './custom-events.ts';
import { EVENT_SUBSETS, subsetStatements } from './derived-tables.ts';
import { FUNNEL_EVENT_COLUMNS, funnelEventsStatements, mergeFunnelEvents } from './funnel-events.ts';
import { INCIDENT_LIVES_STATEMENTS } from './incident-lives.ts';
import {
  CREATE_INCOMING_RECORDS,
  CREATE_INCOMING_ROWS,
  CREATE_LOAD_VIEWS,
  CREATE_ROWS_VIEW,
  LOAD_VIEW_NAMES,
  REQUEST_TYPE,
  ROW_JSON_TYPES,
} from './segment-rows.ts';
import { SESSION_DAYS_STATEMENTS, USER_VALUE_SETS_STATEMENTS } from './session-days.ts';
import { SESSION_EVENT_COLUMNS, sessionEventsStatements } from './session-events.ts';
import { SESSION_VALUES_STATEMENTS } from './session-values.ts';
import {
  TRANSACTION_DAY_KEYS_STATEMENTS,
  TRANSACTION_DAYS_STATEMENTS,
  TRANSACTION_REQUEST_KEYS_STATEMENTS,
} from './transaction-days.ts';
import { TRANSACTION_KEYS_STATEMENTS } from './transaction-keys.ts';
import {
  mergeTransactionReceipts,
  TRANSACTION_RECEIPT_KEYS_STATEMENTS,
  TRANSACTION_RECEIPTS_STATEMENTS,
} from './transaction-receipts.ts';
import { mergeUserDayPaths, USER_DAY_PATHS_STATEMENTS } from './user-day-paths.ts';
import { USER_DAYS_STATEMENTS } from './user-days.ts';
import { USER_LIVES_STATEMENTS } from './user-lives.ts';
import { USER_QUARTERS_STATEMENTS } from './user-quarters.ts';
import { mergeWalletDayBits, WALLET_DAY_BITS_STATEMENTS } from './wallet-day-bits.ts';
import { WALLET_DAYS_STATEMENTS } from './wallet-days.ts';
import { WALLET_EVENT_COLUMNS, walletEventsStatements } from './wallet-events.ts';
import { WALLET_FIRSTS_STATEMENTS } from './wallet-firsts.ts';
import { WALLET_LIST_DAYS_STATEMENTS } from './wallet-list-days.ts';
import {
  mergeWalletListTransactions,
  WALLET_LIST_RECEIPT_IDS_STATEMENTS,
  WALLET_LIST_TRANSACTIONS_STATEMENTS,
} from './wallet-list-transactions.ts';
import { WALLET_HASH_STATEMENTS, WALLET_QUARTERS_STATEMENTS } from './wallet-quarters.ts';
import { WALLET_SENT_TRANSACTIONS_STATEMENTS } from './wallet-sent-transactions.ts';
import { WALLET_TOUCHES_STATEMENTS } from './wallet-touches.ts';

const SQL_TYPES: Record<ColumnKind, string> = {
  varchar: 'String',
  timestamp: "DateTime64(3, 'UTC')",
  bigint: 'Int64',
  // Wei, gas and nonces: exact, and sum/avg work in SQL (a uint256 beyond 2^127 is refused at ingestion).
  hugeint: 'Int128',
};

/** Text columns with a few distinct values: dictionary-encoded, so scans and GROUP BYs over them are cheap. */
const FEW_VALUES = new Set<EventColumnName>([
  'type',
  'origin',
  'sdk',
  'country',
  'browser',
  'os',
  'device',
  'wallet_provider',
  'wallet_rdns',
  'tx_stage',
  'tx_kind',
  'sig_stage',
  'sig_method',
  'error_source',
  'rpc_method',
  'utm_source',
  'utm_medium',
  'event_name',
]);

function columnType({ name, kind, required }: (typeof EVENT_COLUMNS)[number]): string {
  let type = SQL_TYPES[kind];
  if (!required) type = `Nullable(${type})`;
  if (FEW_VALUES.has(name)) type = `LowCardinality(${type})`;
  return type;
}

const columnList = EVENT_COLUMNS.map((column) => `${column.name} ${columnType(column)}`).join(',\n  ');

/**
 * One wide table, sorted by (project_id, ts, id): every dashboard question reads one project's events in
 * a client-time range, which the primary index turns into a few granule ranges. A ReplacingMergeTree on
 * that key, read with FINAL, stores each event once whatever number of times it is loaded: an SDK retry
 * and a replayed segment carry the same (project, id) with the same client time
 * (docs/decisions/018-clickhouse-event-store.md).
 */
const createEventsTable = (name: string) => `CREATE TABLE IF NOT EXISTS ${name} (
  ${columnList}
) ENGINE = ReplacingMergeTree
ORDER BY (project_id, ts, id)`;

const CREATE_EVENTS = createEventsTable('events');

/**
 * A column added to event-row.ts after the database was created, as a migration's statements: added to
 * `events`, its subsets (copies of its rows) and the two tables segments are read into, then the load
 * views made again so that they map it (a view's column list is fixed when it is made). Idempotent.
 * Only optional columns can be added: older rows hold null.
 */
export function addEventColumns(names: readonly EventColumnName[]): string[] {
  const columns = EVENT_COLUMNS.filter(({ name }) => names.includes(name));
  const tables = ['events', ...EVENT_SUBSETS.map((subset) => subset.table)];
  // A column read from the request (the batch's `release`) changes the batch record's request tuple.
  const fromRequest = columns.some((column) => sourceNamesRequest(column.source));
  return [
    // The views first: none reads a segment table while it changes.
    ...LOAD_VIEW_NAMES.map((view) => `DROP VIEW IF EXISTS ${view}`),
    ...tables.flatMap((table) =>
      columns.map((column) => {
        if (column.required) throw new Error(`a required column (${column.name}) cannot be added`);
        return `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${column.name} ${columnType(column)}`;
      }),
    ),
    ...['incoming_records', 'incoming_rows'].flatMap((table) =>
      columns.map(
        ({ name, kind }) => `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${name} ${ROW_JSON_TYPES[kind]}`,
      ),
    ),
    ...(fromRequest ? [`ALTER TABLE incoming_records MODIFY COLUMN request ${REQUEST_TYPE}`] : []),
    ...CREATE_LOAD_VIEWS,
    CREATE_ROWS_VIEW,
  ];
}

function sourceNamesRequest(source: Source): boolean {
  if (source.from === 'request') return true;
  if (source.from === 'coalesce') return source.of.some(sourceNamesRequest);
  if (source.from === 'lower' || source.from === 'only') return sourceNamesRequest(source.of);
  return false;
}

/** `wallet_events`' columns after its wallet, typed as in `events`. */
const WALLET_EVENT_COLUMN_TYPES = EVENT_COLUMNS.filter(({ name }) =>
  (WALLET_EVENT_COLUMNS as readonly string[]).includes(name),
)
  .map((column) => `${column.name} ${columnType(column)}`)
  .join(',\n  ');

/**
 * The session's and the user's 64-bit keys (ADR 093): computed by ClickHouse from the text ids on every
 * insert (MATERIALIZED, so no load names them and `SELECT *` leaves them out), so that the filtered
 * questions group and join sessions by a number instead of hashing the text ids. `cityHash64` is stable
 * across ClickHouse versions. Stored rows get them by a mutation in the background; until a part has
 * them, reading them computes them from the same expression (the same values).
 */
export const EVENT_KEY_STATEMENTS = [
  'ALTER TABLE events ADD COLUMN IF NOT EXISTS session_key UInt64 MATERIALIZED cityHash64(session_id)',
  'ALTER TABLE events ADD COLUMN IF NOT EXISTS user_key UInt64 MATERIALIZED cityHash64(user_id)',
  'ALTER TABLE events MATERIALIZE COLUMN session_key',
  'ALTER TABLE events MATERIALIZE COLUMN user_key',
];
/** The type of the `events` column `name` has, for a derived table that copies it (`table`). */
function eventColumnType(table: string, name: string): string {
  const column = EVENT_COLUMNS.find((candidate) => candidate.name === name);
  if (!column) throw new Error(`${table}: no events column ${name}`);
  return columnType(column);
}

/** `session_events`' columns, typed as in `events`, in its own order. */
const SESSION_EVENT_COLUMN_TYPES = SESSION_EVENT_COLUMNS.map(
  (name) => `${name} ${eventColumnType('session_events', name)}`,
).join(',\n  ');

/** `funnel_events`' columns copied from `events`, typed as there. */
const FUNNEL_EVENT_COLUMN_TYPES = Object.fromEntries(
  FUNNEL_EVENT_COLUMNS.map((name) => [name, eventColumnType('funnel_events', name)]),
) as Record<(typeof FUNNEL_EVENT_COLUMNS)[number], string>;

/**
 * Version 23: every MergeTree table the database holds merged into one part, once (docs/decisions/097).
 * ClickHouse's background merges leave a few large parts of similar size as they are: a store loaded in
 * bulk (one large INSERT, which ClickHouse splits over its insert threads) keeps parts that each span
 * every project's whole time (the bench's store: 5 parts of `events`, about 250 MB each), and `FINAL`
 * then merges every project's rows of all of them on every read, about half of a simple question's CPU;
 * one part it reads as it is. Read and written once, as a version that fills a derived table reads every
 * event. Also what a bulk load asks for once it is done.
 */
export async function mergeEveryTable(clickhouse: ClickHouse): Promise<void> {
  // Only the tables of more than one part: a new database's migrations merge nothing.
  const tables = await clickhouse.rows(
    `SELECT table AS name FROM system.parts
      WHERE database = currentDatabase() AND active AND table != 'schema_version'
      GROUP BY table HAVING count() > 1
      ORDER BY table`,
    {},
    z.object({ name: z.string() }),
  );
  for (const { name } of tables) {
    // A part an unfinished mutation holds (an earlier version's MATERIALIZE COLUMN) is left out of the
    // merge without an error: the mutations go first (one that keeps failing is not waited for).
    while (await hasUnfinishedMutations(clickhouse, name)) await new Promise((done) => setTimeout(done, 500));
    await clickhouse.command(`OPTIMIZE TABLE ${quoteIdentifier(name)} FINAL`);
  }
}

/** Version 24's copy, merged into one part as version 23 left every other table (ADR 097). */
async function mergeSessionValues(clickhouse: ClickHouse): Promise<void> {
  await clickhouse.command('OPTIMIZE TABLE session_values FINAL');
}

/** Version 28's copy, merged into one part as version 24's (ADR 111). */
async function mergeTransactionDays(clickhouse: ClickHouse): Promise<void> {
  await clickhouse.command('OPTIMIZE TABLE transaction_days FINAL');
}

/** Version 25's copies, merged into one part each as version 23 left every other table (ADR 097). */
async function mergeWalletListTables(clickhouse: ClickHouse): Promise<void> {
  await clickhouse.command('OPTIMIZE TABLE wallet_list_days FINAL');
  await mergeWalletListTransactions(clickhouse);
}

/** Version 33's copy, merged into one part as the other tables (ADR 097). */
async function mergeWalletSentTransactions(clickhouse: ClickHouse): Promise<void> {
  await clickhouse.command('OPTIMIZE TABLE wallet_sent_transactions FINAL');
}

async function hasUnfinishedMutations(clickhouse: ClickHouse, table: string): Promise<boolean> {
  const [row] = await clickhouse.rows(
    `SELECT count() AS n FROM system.mutations
      WHERE database = currentDatabase() AND table = {table:String} AND NOT is_done AND latest_fail_reason = ''`,
    { table },
    z.object({ n: z.coerce.number() }),
  );
  return (row?.n ?? 0) > 0;
}

type Migration = {
  version: number;
  statements: readonly string[];
  /** Work that depends on what the database holds, after the statements. */
  run?: (clickhouse: ClickHouse) => Promise<void>;
};

/** The schema's history: each version's statements, applied once, in order, at start-up. */
const MIGRATIONS: readonly Migration[] = [
  { version: 1, statements: [CREATE_EVENTS, CREATE_INCOMING_RECORDS, ...CREATE_LOAD_VIEWS] },
  // Segments of rows records alone load through one plain view (ADR 022).
  { version: 2, statements: [CREATE_INCOMING_ROWS, CREATE_ROWS_VIEW] },
  // Subsets of the events and the users per day, fed by views on `events`, filled from what is stored
  // (ADR 026).
  {
    version: 3,
    statements: [
      ...EVENT_SUBSETS.flatMap((subset) => subsetStatements(subset, createEventsTable(subset.table))),
      ...USER_DAYS_STATEMENTS,
      ...TRANSACTION_KEYS_STATEMENTS,
    ],
  },
  // What the acquisition questions read of each session, per UTC day, folded by an AggregatingMergeTree
  // fed by a view on `events`, filled from what is stored (ADR 030).
  { version: 4, statements: SESSION_DAYS_STATEMENTS },
  // When each wallet was first seen and first connected, per UTC day, folded the same way, for the
  // overview's wallet figures and active wallet-days (ADR 031).
  { version: 5, statements: WALLET_DAYS_STATEMENTS },
  // Each user's first and last active day, folded the same way, for an incident's reach (ADR 032).
  { version: 6, statements: USER_LIVES_STATEMENTS },
  // Each transaction's stages per UTC day, folded the same way, for the transaction outcomes (ADR 033).
  { version: 7, statements: TRANSACTION_DAYS_STATEMENTS },
  // Each incident's whole life, folded the same way, for its lifetime figures (ADR 037).
  { version: 8, statements: INCIDENT_LIVES_STATEMENTS },
  // Each contract transaction's stages per UTC day, folded the same way, for the contract functions (ADR 038).
  { version: 9, statements: CONTRACT_DAYS_STATEMENTS },
  // Each user's session-day value sets with the days they held, fed by a view on `session_days`, for the
  // filter options (ADR 039).
  { version: 10, statements: USER_VALUE_SETS_STATEMENTS },
  // Each transaction-day's latest stage as a plain maximum key in place of its argMax state, refilled from
  // the stored stages, for the transaction outcomes (ADR 045).
  { version: 11, statements: TRANSACTION_DAY_KEYS_STATEMENTS },
  // Each wallet's first time seen and first connection, fed by a view on `wallet_days`, for the new
  // wallets and attribution's "+ Wallets" (ADR 046).
  { version: 12, statements: WALLET_FIRSTS_STATEMENTS },
  // Custom events and identifies: their name, the app's user id and the properties (ADR 064).
  { version: 13, statements: addEventColumns(['event_name', 'app_user_id', 'props']) },
  // Each event's release (the SDK's `release` option, ADR 066).
  { version: 14, statements: addEventColumns(['release']) },
  // The custom and identify events with what the Events questions read, fed by a view on `events`, filled
  // from what is stored (ADR 072).
  { version: 15, statements: CUSTOM_EVENTS_STATEMENTS },
  // Each event carrying a wallet, sorted by the wallet, for the wallet page (ADR 073).
  { version: 16, statements: walletEventsStatements(WALLET_EVENT_COLUMN_TYPES) },
  // `wallet_events` made again with each transaction stage's name, gas used and price, for the wallet
  // page's gas (ADR 084): its view and table dropped, then made and filled from the stored events.
  {
    version: 17,
    statements: [
      'DROP VIEW IF EXISTS wallet_events_of_events',
      'DROP TABLE IF EXISTS wallet_events',
      ...walletEventsStatements(WALLET_EVENT_COLUMN_TYPES),
    ],
  },
  // Each wallet's UTC quarter-hours with an event, fed by a view on `events`, for a zoned project's
  // lifecycle local days (ADR 087).
  { version: 18, statements: WALLET_QUARTERS_STATEMENTS },
  // Each event's session and user keys, for the filtered questions (ADR 093).
  { version: 19, statements: EVENT_KEY_STATEMENTS },
  // Each user's UTC quarter-hours with an event, fed by a view on `events`, and the wallets' and users' ids
  // hashed as `uniqExact` hashes them, for a zoned project's wallet- and user-days (ADR 095).
  { version: 21, statements: [...USER_QUARTERS_STATEMENTS, ...WALLET_HASH_STATEMENTS] },
  // Every event with the wallet page's columns, sorted by session, fed by a view on `events`, filled from
  // what is stored: the page reads its sessions' events by the key (ADR 096).
  { version: 22, statements: sessionEventsStatements(SESSION_EVENT_COLUMN_TYPES) },
  // Every MergeTree table merged into one part once, so that FINAL and the folds read one part where the
  // stored parts overlapped (ADR 097).
  { version: 23, statements: [], run: mergeEveryTable },
  // The sessions of each filter value per day, from `session_days`: the Analytics filters (ADR 101).
  { version: 24, statements: SESSION_VALUES_STATEMENTS, run: mergeSessionValues },
  // What the Wallets list reads of each wallet-day (latest times) and transaction-day (sender, latest
  // stage, fees), fed by views on `events`, filled from what is stored (ADR 110).
  {
    version: 25,
    statements: [...WALLET_LIST_DAYS_STATEMENTS, ...WALLET_LIST_TRANSACTIONS_STATEMENTS],
    run: mergeWalletListTables,
  },
  // Each user's page paths per UTC day, fed by a view on `events`, filled from what is stored and merged
  // into one part: the path goals' conversions (ADR 112).
  { version: 27, statements: USER_DAY_PATHS_STATEMENTS, run: mergeUserDayPaths },
  // Each transaction-day's request key (its first stage's time and session), `transaction_days` made again
  // and filled from the stored stages, merged into one part: the filtered transactions (ADR 111).
  { version: 28, statements: TRANSACTION_REQUEST_KEYS_STATEMENTS, run: mergeTransactionDays },
  // Each wallet's active days as the bits of one UInt64 per block of 64 UTC days, fed by a view on
  // `wallet_list_days`, and each wallet's first touch, fed by a view on `events`, filled from what is
  // stored and merged into one part: the list's lifecycle facts and first touches (ADR 114).
  {
    version: 29,
    statements: [...WALLET_DAY_BITS_STATEMENTS, ...WALLET_TOUCHES_STATEMENTS],
    run: mergeWalletDayBits,
  },
  // Every event a custom funnel's step can be, sorted by (project, type, event name, stage, time), fed by a
  // view on `events`, filled from what is stored and merged into one part: the custom funnels (ADR 124).
  {
    version: 32,
    statements: funnelEventsStatements(FUNNEL_EVENT_COLUMN_TYPES),
    run: mergeFunnelEvents,
  },
  // Each (wallet, UTC day, transaction) of which a stage names the wallet as its sender, sorted by the
  // wallet, fed by a view on `events`, filled from what is stored and merged into one part: the Wallets
  // list's page finds its transactions by the key (ADR 125).
  { version: 33, statements: WALLET_SENT_TRANSACTIONS_STATEMENTS, run: mergeWalletSentTransactions },
  // Each confirmed and reverted stage with a fee and each failed stage, narrow, sorted by (project, time),
  // fed by a view on `events`, filled from what is stored and merged into one part: the failed-transaction
  // cost reads a range's receipts there (ADR 129).
  { version: 35, statements: TRANSACTION_RECEIPTS_STATEMENTS, run: mergeTransactionReceipts },
  // `wallet_list_transactions` made again with each latest receipt's event id beside its time, filled from
  // what is stored and merged into one part: of two receipts in one millisecond the greatest id's fee (ADR 145).
  { version: 36, statements: WALLET_LIST_RECEIPT_IDS_STATEMENTS, run: mergeWalletListTransactions },
  // Each receipt hash of a transaction counted once (docs/wallets.md, ADR 165): `transaction_receipts` made
  // again with each receipt's key, `wallet_list_transactions` with each receipt's (key, time, id, fee)
  // instead of each kind's latest, `wallet_events` with each stage's hash; each filled from what is stored
  // and the two merged into one part.
  {
    version: 37,
    statements: [
      ...TRANSACTION_RECEIPT_KEYS_STATEMENTS,
      ...WALLET_LIST_RECEIPT_IDS_STATEMENTS,
      'DROP VIEW IF EXISTS wallet_events_of_events',
      'DROP TABLE IF EXISTS wallet_events',
      ...walletEventsStatements(WALLET_EVENT_COLUMN_TYPES),
    ],
    run: async (clickhouse) => {
      await mergeTransactionReceipts(clickhouse);
      await mergeWalletListTransactions(clickhouse);
      await clickhouse.command('OPTIMIZE TABLE wallet_events FINAL');
    },
  },
  // A transaction's latest stage by time, rank, then the greatest event id (docs/analytics.md): the
  // latest stage keys of `transaction_days` and `wallet_list_transactions` made again as text with the
  // event id, each table filled from what is stored and merged into one part.
  {
    version: 38,
    statements: [...TRANSACTION_REQUEST_KEYS_STATEMENTS, ...WALLET_LIST_RECEIPT_IDS_STATEMENTS],
    run: async (clickhouse) => {
      await mergeTransactionDays(clickhouse);
      await mergeWalletListTransactions(clickhouse);
    },
  },
];

export const SCHEMA_VERSION = Math.max(...MIGRATIONS.map(({ version }) => version));

/**
 * Brings the database to SCHEMA_VERSION (`upTo`: an older one, as a test builds a database of an earlier
 * release): `schema_version` records each version applied. Every statement is idempotent (IF NOT EXISTS;
 * a derived table's copy of the stored rows only adds duplicates that FINAL, distinct counts and the
 * folds of `session_days`, `wallet_days`, `user_lives`, `transaction_days`, `contract_days`,
 * `incident_lives`, `user_value_sets`, `wallet_firsts`, `wallet_list_days`, `wallet_list_transactions`, `wallet_day_bits`, `wallet_touches` and `wallet_sent_transactions`
 * ignore, `user_day_paths`' readers' ORs and the custom funnel's times of `funnel_events`), so two
 * nodes starting together at worst apply the same version twice (version 11 makes `transaction_days`
 * again: the node whose copy loses the table to the other's drop fails to start, and its restart finds
 * the version applied).
 */
export async function migrate(clickhouse: ClickHouse, upTo = SCHEMA_VERSION): Promise<void> {
  await clickhouse.command(
    `CREATE TABLE IF NOT EXISTS schema_version (
       version UInt32,
       applied_at DateTime64(3, 'UTC') DEFAULT now64(3)
     ) ENGINE = MergeTree ORDER BY version`,
  );
  const [row] = await clickhouse.rows(
    'SELECT max(version) AS version FROM schema_version',
    {},
    z.object({ version: z.coerce.number() }),
  );
  const current = row?.version ?? 0;
  for (const migration of MIGRATIONS) {
    if (migration.version <= current || migration.version > upTo) continue;
    for (const statement of migration.statements) await clickhouse.command(statement);
    await migration.run?.(clickhouse);
    await clickhouse.command('INSERT INTO schema_version (version) VALUES ({version:UInt32})', {
      version: migration.version,
    });
  }
}
