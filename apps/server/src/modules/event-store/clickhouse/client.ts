import type { Readable } from 'node:stream';
import type { ClickHouseClient, ClickHouseError } from '@clickhouse/client';
import type { z } from 'zod';
import type { FairScheduler } from '../fair-scheduler.ts';

/**
 * The adapter's one way to ClickHouse: `@clickhouse/client` over HTTP. CLICKHOUSE_URL names the server,
 * the database (its path) and the credentials: `http://user:password@host:8123/polyflow`.
 */
export type ClickHouse = {
  client: ClickHouseClient;
  database: string;
  /** Runs a statement that answers nothing (DDL, DELETE, INSERT … SELECT). */
  command(sql: string, params?: Params): Promise<void>;
  /** Runs a query and parses each JSONEachRow row with `schema` (rows are checked at the adapter's edge). */
  rows<T>(sql: string, params: Params, schema: z.ZodType<T>): Promise<T[]>;
  /**
   * Runs a query and answers its response body as it arrives, in the query's own FORMAT. With
   * `wait_end_of_query` the server has run the whole query (its answer buffered) before the body begins.
   */
  stream(sql: string, params: Params): Promise<Readable>;
  close(): Promise<void>;
};

export type Params = Record<string, string | number | bigint | boolean | null | readonly string[]>;

/** Where CLICKHOUSE_URL points: the server's URL without the path, and the database of the path. */
export function parseClickHouseUrl(url: string): {
  serverUrl: string;
  database: string;
  username: string;
  password: string;
} {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\/+|\/+$/g, '')) || 'default';
  const username = decodeURIComponent(parsed.username) || 'default';
  const password = decodeURIComponent(parsed.password);
  parsed.pathname = '/';
  parsed.username = '';
  parsed.password = '';
  return { serverUrl: parsed.toString().replace(/\/$/, ''), database, username, password };
}

type Driver = typeof import('@clickhouse/client');

/**
 * `@clickhouse/client`, loaded by the first connection: a server on DuckDB (the default) never loads it,
 * about 1.5 MB of heap less when idle (docs/decisions/089).
 */
let driver: Driver | undefined;

async function loadDriver(): Promise<Driver> {
  driver ??= await import('@clickhouse/client');
  return driver;
}

/** An error `@clickhouse/client` raised (ClickHouse refused a statement); none before the first connection. */
export function isClickHouseError(error: unknown): error is ClickHouseError {
  return driver !== undefined && error instanceof driver.ClickHouseError;
}

/** How long a request may take: a dashboard question or a load; a migration's copy gets longer. */
const REQUEST_TIMEOUT_MS = 120_000;

function clientFor(
  { createClient, ClickHouseLogLevel }: Driver,
  url: string,
  database: string | undefined,
  requestTimeoutMs = REQUEST_TIMEOUT_MS,
): ClickHouseClient {
  const { serverUrl, username, password } = parseClickHouseUrl(url);
  return createClient({
    url: serverUrl,
    username,
    password,
    database,
    application: 'polyflow',
    // Failures reach the caller as errors; the client's own logging would print each one twice.
    log: { level: ClickHouseLogLevel.OFF },
    request_timeout: requestTimeoutMs,
    clickhouse_settings: {
      // An insert answers once its rows are stored and its materialized views have run.
      wait_end_of_query: 1,
    },
  });
}

/**
 * Connects to the database of `url`, creating the database first if it is missing. `requestTimeoutMs`:
 * for a connection that runs long statements (the schema's migrations copy stored events).
 */
export async function connectClickHouse(
  url: string,
  options: { requestTimeoutMs?: number } = {},
): Promise<ClickHouse> {
  const { database } = parseClickHouseUrl(url);
  const driver = await loadDriver();
  const server = clientFor(driver, url, undefined);
  try {
    await server.command({ query: `CREATE DATABASE IF NOT EXISTS ${quoteIdentifier(database)}` });
  } finally {
    await server.close();
  }
  const client = clientFor(driver, url, database, options.requestTimeoutMs);
  return {
    client,
    database,
    async command(sql, params) {
      await client.command({ query: sql, query_params: params });
    },
    async rows(sql, params, schema) {
      const result = await client.query({ query: sql, query_params: params, format: 'JSONEachRow' });
      const rows = await result.json<unknown>();
      return rows.map((row) => schema.parse(row));
    },
    async stream(sql, params) {
      const { stream } = await client.exec({ query: sql, query_params: params });
      return stream;
    },
    close: () => client.close(),
  };
}

/**
 * How many queries the adapter has in flight on its connection at once, all projects together, and how
 * many of them may be long reads (an export's pages or windows): docs/decisions/091. A query beyond them
 * waits in its project's queue, and projects take turns (fair-scheduler.ts). One long read at a time: a
 * dashboard question waits for at most one export window, whatever number of exports run.
 */
export const QUERY_SLOTS = { slots: 4, maxLong: 1 };

/**
 * `clickhouse` for one project's questions (or, `isLong`, its export): each query takes its turn at the
 * scheduler before it is sent, and gives it up once answered (`rows`: parsed; `command`: done; `stream`:
 * once the body begins, the server having run the query). The writer, the migrations and the admin copy
 * use the connection as it is: loads go one at a time in the writer's own queue.
 */
export function scheduledFor(
  clickhouse: ClickHouse,
  scheduler: FairScheduler,
  projectId: string,
  isLong = false,
): ClickHouse {
  return {
    client: clickhouse.client,
    database: clickhouse.database,
    command: (sql, params) => scheduler.run(projectId, () => clickhouse.command(sql, params), isLong),
    rows: (sql, params, schema) =>
      scheduler.run(projectId, () => clickhouse.rows(sql, params, schema), isLong),
    stream: (sql, params) => scheduler.run(projectId, () => clickhouse.stream(sql, params), isLong),
    close: () => clickhouse.close(),
  };
}

export function quoteIdentifier(name: string): string {
  return `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;
}

/** A lightweight DELETE, masked at once on every replica before it answers (ADR 018). */
export async function deleteRows(clickhouse: ClickHouse, table: string, where: string, params: Params) {
  await clickhouse.client.command({
    query: `DELETE FROM ${table} WHERE ${where}`,
    query_params: params,
    clickhouse_settings: { lightweight_deletes_sync: '2' },
  });
}
