import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
  kill9(): Promise<void>;
};

/**
 * The real server as a child process on `port`, serving `dataDir`: src/main.ts through tsx, or with
 * `built` the bundle `npm start` runs (dist/main.js, no TypeScript loader in memory). `env` adds variables.
 */
export async function startServer(
  dataDir: string,
  port: number,
  options: { built?: boolean; env?: Record<string, string>; startTimeoutMs?: number } = {},
): Promise<ServerProcess> {
  if (options.built && !existsSync(path.join(serverRoot, 'dist/main.js')))
    throw new Error('This bench runs the built server (dist/main.js): run `npm run build` first.');
  // BENCH_PROFILE=<dir> writes a V8 CPU profile of the server there (on a graceful stop).
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : [];
  // BENCH_LOOP_DELAY_FILE (in `env`): the event loop's delay, a line a second (support/loop-delay.mjs).
  const loopDelay = options.env?.BENCH_LOOP_DELAY_FILE
    ? ['--import', path.join(serverRoot, 'bench/support/loop-delay.mjs')]
    : [];
  // As `npm start` runs it (package.json): a larger young generation, fewer scavenges per request.
  const child = spawn(
    process.execPath,
    [
      ...profile,
      ...loopDelay,
      '--max-semi-space-size=32',
      '--expose-gc',
      ...(options.built ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts']),
    ],
    {
      cwd: serverRoot,
      env: {
        // As `npm start` sets them (ADR 034, ADR 089).
        UV_THREADPOOL_SIZE: '16',
        MALLOC_ARENA_MAX: '2',
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        // Request logging is two log lines per request; the figures are for the server, not for pino.
        LOG_LEVEL: 'warn',
        ...options.env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // Generous by default: on a machine shared by many builds, tsx alone can take most of a minute to start the server.
  const startTimeoutMs = options.startTimeoutMs ?? 120_000;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} during start-up`);
    try {
      const response = await fetch(`${url}/api/v1/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within ${startTimeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
