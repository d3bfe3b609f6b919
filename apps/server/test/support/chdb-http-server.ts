import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { Session } from 'chdb';

/**
 * ClickHouse's engine (npm `chdb`, ClickHouse 26.x in-process) behind the part of ClickHouse's HTTP interface
 * that `@clickhouse/client` uses, so the real client, and several Polyflow processes, talk to one
 * ClickHouse over HTTP in the tests (no modern ClickHouse server can be installed on these machines).
 *
 *   npx tsx apps/server/test/support/chdb-http-server.ts --port 8123 --path ./chdb-data [--user u --password p] [--no-jit] [--default-background-retry]
 *
 * What it serves, as the real server does:
 * - `GET /ping` and `GET /` answer `Ok.`;
 * - a query in the body of a POST (or in `?query=` of a GET or POST; with both, they are joined), its
 *   `param_<name>` query parameters bound by the engine, `database` (or `X-ClickHouse-Database`),
 *   `default_format`, and any other URL parameter as a setting of that query;
 * - an `INSERT INTO t [(cols)] [SETTINGS …] FORMAT f` in `?query=` with the data as the body;
 * - credentials as `X-ClickHouse-User`/`X-ClickHouse-Key`, HTTP Basic, or `user`/`password` parameters;
 * - answers with `X-ClickHouse-Query-Id`, `X-ClickHouse-Format`, `X-ClickHouse-Timezone` and
 *   `X-ClickHouse-Summary`; errors as `Code: N. DB::Exception: …` with `X-ClickHouse-Exception-Code` and
 *   the status ClickHouse gives that code.
 *
 * An insert's body is streamed into a file in the data directory as it arrives and inserted by the engine
 * itself as `INSERT INTO t (columns) SELECT * FROM file(body, format, 'the columns and their types')`: the
 * same format parser, settings, column types, materialized views and errors as `INSERT … FORMAT`, for
 * less CPU than chdb's inline-data insert (which takes the body as part of the query text: 3.8 s against
 * 2.4 s of the server's CPU for a 100,000-event copy file, and 4.5 s against 3.4 s for a segment of
 * 100,000 rows records, on the busy shared machine), so the benches measure more of the engine and less
 * of that path. Where a real insert would fill an omitted field from the column's DEFAULT expression
 * (file() gives the type's default), the body goes inline as before (text formats only).
 *
 * Its limits (chdb's): queries run one at a time (the engine's current database and parameter bindings
 * belong to its one connection), a result is buffered whole before it is sent, `written_rows` counts the
 * body's rows (not the rows materialized views write from them), and `input()` is not available (chdb
 * hands inline data only to a plain table insert).
 */

type NativeResult = { bytes: Uint8Array; elapsed: number; rowsRead: number; bytesRead: number };
type InsertResult = { elapsed: number; rowsWritten: number; bytesWritten: number; rowsSent?: number };
type ChdbNative = {
  QueryAsyncConnection(
    connection: unknown,
    sql: string,
    format: string,
    params?: Record<string, string>,
  ): Promise<NativeResult>;
  InsertRawAsyncConnection(
    connection: unknown,
    prefix: string,
    data: Buffer,
    countLines: boolean,
  ): Promise<InsertResult>;
};

// The binding's own parameter path re-escapes every value as if it were a JS string; a value arriving
// over HTTP is already in ClickHouse's parameter text form (`['a','b']`, `it\'s`), so it is handed to the
// native call as it came, as the real server does. The binding exports no path to the native module.
const requireHere = createRequire(import.meta.url);
const native = requireHere(
  path.join(path.dirname(requireHere.resolve('chdb')), 'dist/loader.js'),
).loadNative() as ChdbNative;

export type ChdbHttpServerOptions = {
  /** 0 picks a free port. */
  port: number;
  /** The engine's data directory (kept across restarts). */
  dataPath: string;
  host?: string;
  user?: string;
  password?: string;
  /**
   * false: the engine compiles no expressions, aggregates or sorts to machine code (its JIT, ADR 131).
   * A test engine answers each question's statement a few times, on a few hundred rows: compiling costs
   * more than it saves (a quarter of chdb's CPU over one pass of the acquisition and incident questions).
   * The answers are the same; production engines and the benches keep the JIT.
   */
  jit?: boolean;
  /**
   * true: the engine's background tasks wait as ClickHouse's defaults make them (see PROMPT_BACKGROUND_WORK);
   * `npm run bench:forget` compares the two.
   */
  defaultBackgroundRetry?: boolean;
};

/**
 * A server setting of ClickHouse's (config.xml's `background_processing_pool_task_sleep_seconds_when_no_work_random_part`,
 * 1 s by default): after a table's background task finds nothing to do (a mutation whose parts a merge still
 * holds), it sleeps its backoff plus up to this long at random before it looks again. A lightweight DELETE
 * answers when its mutation is done (`lightweight_deletes_sync`), so a delete right after a load waited up to a
 * second per table, the engine idle (ADR 171). 0 keeps the backoff and drops the random second; the
 * statements and their answers are the same. docs/scaling.md recommends it for a ClickHouse server.
 */
const PROMPT_BACKGROUND_WORK = ['--background_processing_pool_task_sleep_seconds_when_no_work_random_part=0'];

/** Settings that turn the engine's JIT off (`jit: false`). */
const NO_JIT = [
  '--compile_expressions=0',
  '--compile_aggregate_expressions=0',
  '--compile_sort_description=0',
];

export type ChdbHttpServer = {
  /** `http://host:port` */
  url: string;
  port: number;
  /** How many statements the engine has run, the server's own (`USE`, settings) included. */
  statements(): number;
  close(): Promise<void>;
};

/** URL parameters that are not settings. */
const NOT_SETTINGS = new Set([
  'query',
  'query_id',
  'database',
  'default_format',
  'user',
  'password',
  'session_id',
  'session_timeout',
  'session_check',
  'role',
  'compress',
  'decompress',
  'buffer_size',
  'wait_end_of_query',
]);
/** Settings of the HTTP layer itself, with no meaning for an engine that buffers whole answers. */
const HTTP_ONLY_SETTINGS = new Set([
  'enable_http_compression',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
  'http_response_buffer_size',
  'http_zlib_compression_level',
  'http_native_compression_disable_checksumming_on_decompress',
  'http_wait_end_of_query',
]);

/** The status ClickHouse's HTTP handler answers for an exception code (the rest: 500). */
const STATUS_OF_CODE: Record<number, number> = {
  // Authentication.
  192: 401, // UNKNOWN_USER
  193: 401, // WRONG_PASSWORD
  194: 401, // REQUIRED_PASSWORD
  516: 401, // AUTHENTICATION_FAILED
  497: 403, // ACCESS_DENIED
  // The request cannot be understood.
  6: 400, // CANNOT_PARSE_TEXT
  26: 400, // CANNOT_PARSE_QUOTED_STRING
  27: 400, // CANNOT_PARSE_INPUT_ASSERTION_FAILED
  32: 400, // ATTEMPT_TO_READ_AFTER_EOF
  33: 400, // CANNOT_READ_ALL_DATA
  38: 400, // CANNOT_PARSE_DATE
  41: 400, // CANNOT_PARSE_DATETIME
  42: 400, // NUMBER_OF_ARGUMENTS_DOESNT_MATCH
  43: 400, // ILLEGAL_TYPE_OF_ARGUMENT
  44: 400, // ILLEGAL_COLUMN
  53: 400, // TYPE_MISMATCH
  62: 400, // SYNTAX_ERROR
  69: 400, // ARGUMENT_OUT_OF_BOUND
  70: 400, // CANNOT_CONVERT_TYPE
  72: 400, // CANNOT_PARSE_NUMBER
  117: 400, // INCORRECT_DATA
  184: 400, // ILLEGAL_AGGREGATION
  215: 400, // NOT_AN_AGGREGATE
  456: 400, // UNKNOWN_QUERY_PARAMETER
  457: 400, // BAD_QUERY_PARAMETER
  // Something named does not exist.
  46: 404, // UNKNOWN_FUNCTION
  47: 404, // UNKNOWN_IDENTIFIER
  50: 404, // UNKNOWN_TYPE
  56: 404, // UNKNOWN_STORAGE
  60: 404, // UNKNOWN_TABLE
  63: 404, // UNKNOWN_AGGREGATE_FUNCTION
  73: 404, // UNKNOWN_FORMAT
  81: 404, // UNKNOWN_DATABASE
  115: 404, // UNKNOWN_SETTING
  16: 404, // NO_SUCH_COLUMN_IN_TABLE
  48: 501, // NOT_IMPLEMENTED
};

class RequestError extends Error {
  constructor(
    readonly code: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const VERSION = '26.x (chdb)';
const exceptionText = (code: number, type: string, message: string) =>
  `Code: ${code}. DB::Exception: ${message}. (${type}) (version ${VERSION})\n`;

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function credentialsOf(
  request: IncomingMessage,
  params: URLSearchParams,
): { user: string; password: string } {
  const header = request.headers.authorization;
  if (header?.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  const user = request.headers['x-clickhouse-user'];
  const key = request.headers['x-clickhouse-key'];
  return {
    user: (typeof user === 'string' ? user : params.get('user')) ?? 'default',
    password: (typeof key === 'string' ? key : params.get('password')) ?? '',
  };
}

/** A setting's value as a SQL literal: numbers as they are, anything else quoted. */
const settingLiteral = (value: string) =>
  /^-?\d+(\.\d+)?$/.test(value) ? value : `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

const INSERT_WITH_DATA =
  /^\s*INSERT\s+INTO\s+([\w.`"]+)\s*(\([^)]*\))?\s*(SETTINGS\s+[\s\S]*?)?\s*FORMAT\s+(\w+)\s*$/i;
/** Text formats chdb's inline insert takes (its fallback); any format goes through file(). */
const INLINE_FORMATS =
  /^(JSONEachRow|JSONCompactEachRow|TSV|TabSeparated\w*|TSVWithNames|CSV|CSVWithNames)$/i;
const FORMAT_CLAUSE = /\bFORMAT\s+(\w+)\s*;?\s*$/i;
const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export async function startChdbHttpServer(options: ChdbHttpServerOptions): Promise<ChdbHttpServer> {
  mkdirSync(options.dataPath, { recursive: true });
  // The real server's HTTP defaults where clickhouse-local's differ.
  const session = new Session(options.dataPath, {
    connectionArgs: [
      '--output_format_json_quote_64bit_integers=1',
      ...(options.jit === false ? NO_JIT : []),
      ...(options.defaultBackgroundRetry ? [] : PROMPT_BACKGROUND_WORK),
    ],
  });
  const expectedUser = options.user ?? 'default';
  const expectedPassword = options.password ?? '';
  let currentDatabase = 'default';
  const insertsDir = path.join(options.dataPath, 'http-inserts');
  rmSync(insertsDir, { recursive: true, force: true });
  mkdirSync(insertsDir, { recursive: true });

  // One statement at a time: `USE`, the settings of a query and parameter bindings are the connection's.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  };

  let statements = 0;
  async function run(sql: string, format = 'TabSeparated', params?: Record<string, string>) {
    statements += 1;
    try {
      return await native.QueryAsyncConnection(session.connection, sql, format, params);
    } catch (error) {
      throw asRequestError(error);
    }
  }

  async function useDatabase(database: string) {
    if (database === currentDatabase) return;
    await run(`USE ${quoteIdentifier(database)}`);
    currentDatabase = database;
  }

  /**
   * Each setting's value before any request changed it (read from the engine once per name), and the
   * settings the last request left changed. A request's URL settings are applied with one `SET` of only
   * what differs from what the engine holds (the previous request's settings put back where this one
   * names none), so that a product that sends the same settings with every query pays no extra
   * statements for them: 1.5–2 ms of chdb's CPU each (three per request, when every request read, set
   * and put back its settings).
   */
  const defaults = new Map<string, string>();
  let applied = new Map<string, string>();

  async function applySettings(settings: [string, string][]): Promise<void> {
    const unread = settings.filter(([name]) => !defaults.has(name));
    if (unread.length > 0) {
      const names = unread.map(([name]) => `'${name}'`).join(', ');
      const read = Buffer.from(
        (await run(`SELECT name, value FROM system.settings WHERE name IN (${names})`, 'JSONEachRow')).bytes,
      )
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { name: string; value: string });
      for (const { name, value } of read) defaults.set(name, value);
      const unknown = unread.find(([name]) => !defaults.has(name));
      if (unknown) throw new RequestError(115, 'UNKNOWN_SETTING', `Unknown setting '${unknown[0]}'`);
    }
    const wanted = new Map(settings);
    const changes: [string, string][] = [];
    for (const [name, value] of wanted)
      if ((applied.get(name) ?? defaults.get(name)) !== value) changes.push([name, value]);
    for (const name of applied.keys())
      if (!wanted.has(name)) changes.push([name, defaults.get(name) as string]);
    if (changes.length > 0) {
      try {
        await run(`SET ${changes.map(([name, value]) => `${name} = ${settingLiteral(value)}`).join(', ')}`);
      } catch (error) {
        // Which of them the engine took is unknown: the next request sets each of them again.
        for (const [name] of changes) applied.set(name, '\u0000unknown');
        throw error;
      }
    }
    applied = new Map([...wanted].filter(([name, value]) => defaults.get(name) !== value));
  }

  /**
   * The columns an `INSERT INTO table [(list)] FORMAT …` fills from its body, with their types, or undefined
   * where file() would not read the body as the insert does (a column filled by a DEFAULT expression when
   * a field is omitted; a table or column the engine will name in its own error, inline).
   */
  async function insertColumns(
    table: string,
    columnList: string | undefined,
  ): Promise<{ name: string; type: string }[] | undefined> {
    const parts = table.replace(/[`"]/g, '').split('.');
    const [database, name] = parts.length === 2 ? parts : [currentDatabase, parts[0]];
    const described = Buffer.from(
      (
        await run(
          `SELECT name, type, default_kind FROM system.columns WHERE database = ${stringLiteral(database as string)} AND table = ${stringLiteral(name as string)} ORDER BY position`,
          'JSONEachRow',
        )
      ).bytes,
    )
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { name: string; type: string; default_kind: string });
    const listed = columnList
      ?.slice(1, -1)
      .split(',')
      .map((column) => column.trim().replace(/^[`"]|[`"]$/g, ''));
    const columns = listed
      ? listed.map((column) => described.find((row) => row.name === column))
      : described.filter((row) => !['MATERIALIZED', 'ALIAS', 'EPHEMERAL'].includes(row.default_kind));
    if (columns.length === 0 || columns.some((column) => column?.default_kind !== '')) return undefined;
    return columns as { name: string; type: string }[];
  }

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (
      url.pathname === '/ping' ||
      (url.pathname === '/' && request.method === 'GET' && !url.searchParams.has('query'))
    ) {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' }).end('Ok.\n');
      return;
    }
    if (url.pathname !== '/') throw new RequestError(0, 'UNKNOWN', `There is no handle ${url.pathname}`);
    const params = url.searchParams;
    const { user, password } = credentialsOf(request, params);
    if (user !== expectedUser || password !== expectedPassword)
      throw new RequestError(
        516,
        'AUTHENTICATION_FAILED',
        `${user}: Authentication failed: password is incorrect, or there is no user with such name`,
      );

    const queryId = params.get('query_id') ?? randomUUID();
    const header = request.headers['x-clickhouse-database'];
    const database = params.get('database') ?? (typeof header === 'string' ? header : 'default');
    const bound: Record<string, string> = {};
    const settings: [string, string][] = [];
    for (const [name, value] of params) {
      if (name.startsWith('param_')) bound[name.slice('param_'.length)] = value;
      else if (!NOT_SETTINGS.has(name) && !HTTP_ONLY_SETTINGS.has(name)) {
        if (!SETTING_NAME.test(name))
          throw new RequestError(115, 'UNKNOWN_SETTING', `Unknown setting '${name}'`);
        settings.push([name, value]);
      }
    }
    const queryParam = params.get('query');
    const insert = queryParam ? INSERT_WITH_DATA.exec(queryParam) : null;
    // An insert's body goes to a file as it arrives (never whole in memory); any other body is the query.
    const bodyFile = insert ? path.join(insertsDir, `${randomUUID()}.body`) : undefined;
    if (bodyFile) await pipeline(request, createWriteStream(bodyFile));
    const body = bodyFile ? Buffer.alloc(0) : await readBody(request);

    async function runRequest() {
      await useDatabase(database);
      // Every statement runs with this request's settings and none of another's (an insert also names
      // them in its own SETTINGS clause).
      await applySettings(settings);
      if (insert) {
        const [, table, columnList, settingsClause, format] = insert as unknown as [
          string,
          string,
          string | undefined,
          string | undefined,
          string,
        ];
        const empty = { bytes: new Uint8Array(), format, readRows: 0, readBytes: 0 };
        // Nothing to insert: the real server answers an empty insert with success, writing nothing.
        const bodyBytes = statSync(bodyFile as string).size;
        if (bodyBytes === 0) return { ...empty, writtenRows: 0, writtenBytes: 0 };
        const allSettings = [
          settingsClause?.replace(/^\s*SETTINGS\s+/i, ''),
          ...settings.map(([name, value]) => `${name} = ${settingLiteral(value)}`),
        ]
          .filter(Boolean)
          .join(', ');
        const columns = await insertColumns(table, columnList);
        if (columns) {
          const source = `file(${stringLiteral(bodyFile as string)}, ${stringLiteral(format)}, ${stringLiteral(
            columns.map(({ name, type }) => `${quoteIdentifier(name)} ${type}`).join(', '),
          )})`;
          const withSettings = allSettings ? ` SETTINGS ${allSettings}` : '';
          await run(
            `INSERT INTO ${table} (${columns.map(({ name }) => quoteIdentifier(name)).join(', ')}) SELECT * FROM ${source}${withSettings}`,
          );
          const counted = await run(`SELECT count() FROM ${source}${withSettings}`);
          return {
            ...empty,
            writtenRows: Number(Buffer.from(counted.bytes).toString()),
            writtenBytes: bodyBytes,
          };
        }
        if (!INLINE_FORMATS.test(format))
          throw new RequestError(
            73,
            'UNKNOWN_FORMAT',
            `This test server takes ${format} only into plain columns`,
          );
        // The data is the body; settings of the query go into its own SETTINGS clause.
        const withSettingsClause =
          settings.length === 0
            ? queryParam
            : (queryParam as string).replace(
                /\s*FORMAT\s+\w+\s*$/i,
                ` ${settingsClause ? ',' : 'SETTINGS'} ${settings.map(([n, v]) => `${n} = ${settingLiteral(v)}`).join(', ')} FORMAT ${format}`,
              );
        const inserted = await native
          .InsertRawAsyncConnection(
            session.connection,
            withSettingsClause as string,
            readFileSync(bodyFile as string),
            false,
          )
          .catch((error: unknown) => {
            throw asRequestError(error);
          });
        return { ...empty, writtenRows: inserted.rowsWritten, writtenBytes: inserted.bytesWritten };
      }
      const sql = [queryParam, body.length > 0 ? body.toString('utf8') : null].filter(Boolean).join('\n');
      if (!sql.trim()) throw new RequestError(62, 'SYNTAX_ERROR', 'Empty query');
      const format = FORMAT_CLAUSE.exec(sql)?.[1] ?? params.get('default_format') ?? 'TabSeparated';
      const ran = await run(sql, format, bound);
      return {
        bytes: ran.bytes,
        format,
        readRows: ran.rowsRead,
        readBytes: ran.bytesRead,
        writtenRows: 0,
        writtenBytes: 0,
      };
    }
    const started = process.hrtime.bigint();
    const result = await serially(async () => {
      try {
        return await runRequest();
      } finally {
        if (bodyFile) rmSync(bodyFile, { force: true });
      }
    });
    const elapsedNs = process.hrtime.bigint() - started;
    if (process.env.CHDB_HTTP_LOG)
      console.error(
        `${(Number(elapsedNs) / 1e6).toFixed(1)} ms ${(queryParam ?? body.toString('utf8')).slice(0, 100).replace(/\s+/g, ' ')}`,
      );
    const summary = {
      read_rows: String(result.readRows),
      read_bytes: String(result.readBytes),
      written_rows: String(result.writtenRows),
      written_bytes: String(result.writtenBytes),
      total_rows_to_read: String(result.readRows),
      result_rows: '0',
      result_bytes: String(result.bytes.length),
      elapsed_ns: elapsedNs.toString(),
    };
    response.writeHead(200, {
      'Content-Type': /^JSON/i.test(result.format)
        ? 'application/json; charset=UTF-8'
        : 'text/plain; charset=UTF-8',
      'X-ClickHouse-Query-Id': queryId,
      'X-ClickHouse-Format': result.format,
      'X-ClickHouse-Timezone': 'UTC',
      'X-ClickHouse-Server-Display-Name': 'chdb',
      'X-ClickHouse-Summary': JSON.stringify(summary),
      'Keep-Alive': 'timeout=10',
    });
    response.end(Buffer.from(result.bytes));
  }

  const server: Server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      const failure = asRequestError(error);
      const status = STATUS_OF_CODE[failure.code] ?? (failure.code === 0 ? 404 : 500);
      if (response.headersSent) {
        response.destroy();
        return;
      }
      response.writeHead(status, {
        'Content-Type': 'text/plain; charset=UTF-8',
        'X-ClickHouse-Exception-Code': String(failure.code),
        'X-ClickHouse-Server-Display-Name': 'chdb',
      });
      response.end(exceptionText(failure.code, failure.type, failure.message));
    });
  });
  // The client keeps sockets alive for a while; they must not hold the process open after close().
  server.keepAliveTimeout = 10_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    statements: () => statements,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await queue;
      session.close();
    },
  };
}

function stringLiteral(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function quoteIdentifier(name: string): string {
  return `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;
}

const ENGINE_ERROR =
  /Code: (\d+)\. DB::Exception: ([\s\S]*?)\s*\(([A-Z0-9_]{3,})\)(?: \(version [^)]*\))?\s*$/;

function asRequestError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const match = ENGINE_ERROR.exec(message);
  if (match)
    return new RequestError(Number(match[1]), match[3] as string, (match[2] as string).replace(/\.$/, ''));
  const code = (error as { clickhouseCode?: unknown })?.clickhouseCode;
  return new RequestError(typeof code === 'number' ? code : 1001, 'STD_EXCEPTION', message);
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

// As a process of its own (e2e, several Polyflow nodes, benches): prints its URL once it listens.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dataPath = argument('path');
  if (!dataPath) {
    console.error(
      'usage: chdb-http-server.ts --path <data dir> [--port 8123] [--host 127.0.0.1] [--user u] [--password p] [--temporary] [--no-jit] [--default-background-retry]',
    );
    process.exit(2);
  }
  const server = await startChdbHttpServer({
    port: Number(argument('port') ?? 8123),
    dataPath: path.resolve(dataPath),
    host: argument('host'),
    user: argument('user'),
    password: argument('password'),
    jit: !process.argv.includes('--no-jit'),
    defaultBackgroundRetry: process.argv.includes('--default-background-retry'),
  });
  console.log(`chdb HTTP server listening on ${server.url}`);
  // --temporary: a vitest worker's shared engine (test/support/worker-chdb.ts), in a data directory of its
  // own. It ends when the worker does, even when the worker is killed (this process is then handed to another
  // parent), and removes its data directory as it ends.
  const temporary = process.argv.includes('--temporary');
  const stop = () => {
    server.close().then(
      () => {
        if (temporary) rmSync(path.resolve(dataPath), { recursive: true, force: true });
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (temporary) {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) stop();
    }, 1000).unref();
  }
}
