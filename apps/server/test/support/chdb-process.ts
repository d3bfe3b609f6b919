import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The chdb HTTP server (chdb-http-server.ts) as a process of its own, in a temporary data directory. */
export type ChdbProcess = {
  /** `http://user:password@127.0.0.1:port`: add a database as the path. */
  url: string;
  process: ChildProcess;
  /** The engine's data directory (removed by `stop()` when it is a temporary one of its own). */
  dataPath: string;
  stop(): Promise<void>;
};

const SERVER = path.join(import.meta.dirname, 'chdb-http-server.ts');

/**
 * The engine's allocator (jemalloc, read from `JE_MALLOC_CONF` by chdb's prefixed build; a ClickHouse server
 * reads `MALLOC_CONF`) keeps the memory a query frees for the next one instead of handing it back to the
 * system within seconds and faulting it in again: that return and re-fault made about one call in five of
 * a repeated question twice as slow (docs/decisions/135). As docs/scaling.md recommends for a ClickHouse
 * server; a `JE_MALLOC_CONF` of the caller's environment wins.
 */
export const ENGINE_ALLOCATOR = 'dirty_decay_ms:-1,muzzy_decay_ms:-1';

export async function startChdbProcess(
  options: {
    dataPath?: string;
    user?: string;
    password?: string;
    /**
     * The server ends itself when this process ends without stopping it (even when killed), and removes
     * its data directory (its own temporary one: no `dataPath`) as it ends.
     */
    temporary?: boolean;
    /** false: an engine for tests, without its JIT (chdb-http-server.ts `jit`, ADR 131). */
    jit?: boolean;
    /** true: ClickHouse's default wait of background tasks (chdb-http-server.ts `defaultBackgroundRetry`). */
    defaultBackgroundRetry?: boolean;
  } = {},
): Promise<ChdbProcess> {
  const ownDir = options.dataPath ? undefined : mkdtempSync(path.join(os.tmpdir(), 'polyflow-chdb-'));
  const dataPath = options.dataPath ?? (ownDir as string);
  const user = options.user ?? 'polyflow';
  const password = options.password ?? 'chdb-test';
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      SERVER,
      '--port',
      '0',
      '--path',
      dataPath,
      '--user',
      user,
      '--password',
      password,
      ...(options.temporary && !options.dataPath ? ['--temporary'] : []),
      ...(options.jit === false ? ['--no-jit'] : []),
      ...(options.defaultBackgroundRetry ? ['--default-background-retry'] : []),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, JE_MALLOC_CONF: process.env.JE_MALLOC_CONF ?? ENGINE_ALLOCATOR },
    },
  );
  let output = '';
  const listening = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chdb HTTP server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`chdb HTTP server exited (${code}):\n${output}`));
    });
  });
  // CHDB_HTTP_LOG=1 makes the server print each statement and its time on stderr (chdb-http-server.ts);
  // CHDB_HTTP_LOG_FILE=<file> keeps those lines of every engine the tests start, to count statements by kind.
  const logFile = process.env.CHDB_HTTP_LOG_FILE;
  if (logFile) child.stderr.on('data', (chunk: Buffer) => appendFileSync(logFile, chunk));
  const address = new URL(listening);
  address.username = user;
  address.password = password;
  return {
    url: address.toString().replace(/\/$/, ''),
    process: child,
    dataPath,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    },
  };
}
