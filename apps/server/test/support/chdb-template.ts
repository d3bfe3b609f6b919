import { z } from 'zod';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import {
  type ClickHouse,
  connectClickHouse,
  parseClickHouseUrl,
} from '../../src/modules/event-store/clickhouse/client.ts';

/**
 * A new test database as the schema's migrations leave it, for about half the engine's work (ADR 108).
 * Migrating an empty database replays every schema version (about 120 statements, a second of chdb's CPU);
 * the test files of the ClickHouse projects open a fresh database about a hundred times a run. Instead, each
 * engine holds one database migrated by the store itself (`pf_template`: created the first time a test of
 * the process asks, never loaded), and a new database gets its tables and views from their
 * `create_table_query` and the template's `schema_version` rows: the store's own migrations then find it
 * current. A database that already exists (a restarted server's), or one a test migrates up from an older
 * version (clickhouse-older-database.ts), is left to the store as before.
 * test/event-store/chdb-template.test.ts shows that a clone's tables and views are the migrated ones.
 */
export const TEMPLATE_DATABASE = 'pf_template';

/** The template of each engine (its URL without the database), created once per process. */
const templates = new Map<string, Promise<void>>();

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const Exists = z.object({ exists: z.coerce.number() });
const Table = z.object({ name: z.string(), create: z.string() });

/** The tables and views of `database` as statements that make them again, views after tables. */
export async function createStatements(clickhouse: ClickHouse, database: string): Promise<string[]> {
  const tables = await clickhouse.rows(
    `SELECT name, create_table_query AS create FROM system.tables WHERE database = {database:String}
      ORDER BY engine IN ('MaterializedView', 'View'), name`,
    { database },
    Table,
  );
  return tables.map((table) => table.create);
}

/**
 * Creates the template of the engine at `url` (any database path) unless this process already did; global
 * setup makes each run's server-clickhouse engines' templates beside PostgreSQL's start, so that no test's
 * hook pays for it. In a worker, an engine whose template exists costs two statements the first time.
 */
export function template(url: string): Promise<void> {
  const { serverUrl, username, password } = parseClickHouseUrl(url);
  const server = new URL(serverUrl);
  server.username = username;
  server.password = password;
  const key = server.toString().replace(/\/$/, '');
  let made = templates.get(key);
  if (!made) {
    made = createClickHouseEventStore(`${key}/${TEMPLATE_DATABASE}`).then((store) => store.close());
    templates.set(key, made);
    // A failed start is not kept: the next test tries again and reports its own failure.
    made.catch(() => templates.delete(key));
  }
  return made;
}

/**
 * Makes the database of `url` a copy of its engine's template when it does not exist yet; any other
 * database (existing, or not a plain name) is left as it is.
 */
export async function cloneTemplateInto(url: string): Promise<void> {
  const { database } = parseClickHouseUrl(url);
  if (!PLAIN_NAME.test(database) || database === TEMPLATE_DATABASE) return;
  await template(url);
  const clickhouse = await connectClickHouse(url.replace(/\/[^/]*$/, `/${TEMPLATE_DATABASE}`));
  try {
    const [found] = await clickhouse.rows(
      'SELECT count() AS exists FROM system.tables WHERE database = {database:String}',
      { database },
      Exists,
    );
    if ((found?.exists ?? 0) > 0) return;
    await clickhouse.command(`CREATE DATABASE IF NOT EXISTS ${database}`);
    for (const statement of await createStatements(clickhouse, TEMPLATE_DATABASE)) {
      await clickhouse.command(statement.replaceAll(`${TEMPLATE_DATABASE}.`, `${database}.`));
    }
    await clickhouse.command(
      `INSERT INTO ${database}.schema_version SELECT * FROM ${TEMPLATE_DATABASE}.schema_version`,
    );
  } finally {
    await clickhouse.close();
  }
}

const TableEngine = z.object({ name: z.string(), engine: z.string() });
/** Engines whose tables hold no rows of their own. */
const HOLDS_NO_ROWS = new Set(['MaterializedView', 'View', 'Null']);

/** The template's statements of each engine, as a clone's would read with its name replaced by the template's. */
const templateStatements = new Map<string, Promise<string[]>>();

/**
 * Empties the database of `url` for another test when it still has the template's tables and views, and
 * says whether it did: every table's rows go (`TRUNCATE … SYNC`: its parts and pending merges with them)
 * but the template's `schema_version`, so the database is then as a clone of the template is, for about a
 * quarter of a clone's CPU (about 60 statements) and none of the merges a finished test's tiny parts
 * would still cost. A database whose tables or views differ (a test altered them) is left as it is.
 */
export async function emptiedForReuse(url: string): Promise<boolean> {
  const { database } = parseClickHouseUrl(url);
  if (!PLAIN_NAME.test(database) || database === TEMPLATE_DATABASE) return false;
  const clickhouse = await connectClickHouse(url.replace(/\/[^/]*$/, `/${TEMPLATE_DATABASE}`));
  try {
    const key = url.replace(/\/[^/]*$/, '');
    let template = templateStatements.get(key);
    if (!template) {
      template = createStatements(clickhouse, TEMPLATE_DATABASE);
      templateStatements.set(key, template);
      template.catch(() => templateStatements.delete(key));
    }
    const own = (await createStatements(clickhouse, database)).map((statement) =>
      statement.replaceAll(`${database}.`, `${TEMPLATE_DATABASE}.`),
    );
    if (JSON.stringify(own) !== JSON.stringify(await template)) return false;
    const tables = (
      await clickhouse.rows(
        `SELECT name, engine FROM system.tables WHERE database = {database:String} AND name != 'schema_version'`,
        { database },
        TableEngine,
      )
    ).filter((table) => !HOLDS_NO_ROWS.has(table.engine));
    // Only MergeTree tables are emptied here; a table of another engine could keep what TRUNCATE misses.
    if (tables.some((table) => !table.engine.endsWith('MergeTree'))) return false;
    for (const { name } of tables) {
      await clickhouse.command(`TRUNCATE TABLE ${database}.\`${name.replaceAll('`', '\\`')}\` SYNC`);
    }
    return true;
  } finally {
    await clickhouse.close();
  }
}

/** `createClickHouseEventStore(url, options)` on a database cloned from the template when it is new. */
export async function templatedClickHouseStore(
  url: string,
  options?: Parameters<typeof createClickHouseEventStore>[1],
): Promise<ClickHouseEventStore> {
  await cloneTemplateInto(url);
  return createClickHouseEventStore(url, options);
}
