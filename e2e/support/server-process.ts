import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

const repoRoot = join(import.meta.dirname, '..', '..');

/** A running Polyflow server: the built `apps/server/dist/main.js`, as `npm start` runs it. */
export interface ServerProcess {
  url: string;
  /** Everything it printed, for failure messages. */
  output(): string;
  /** SIGTERM (the server loads its ingestion log and closes DuckDB), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/**
 * Starts the server on a free port (PORT, HOST and PUBLIC_URL are set here) with `env` (DATA_DIR and the
 * rest) and resolves once
 * `/api/v1/health` answers. POLYFLOW_SERVER_ENTRY runs another build (a work in progress; development only).
 */
export async function startServerProcess(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const entry = process.env.POLYFLOW_SERVER_ENTRY ?? join(repoRoot, 'apps/server/dist/main.js');
  if (!existsSync(entry)) throw new Error('The server is not built: run `npm run build` first.');
  const port = await freePort();
  const url = `http://localhost:${port}`;
  // UV_THREADPOOL_SIZE and MALLOC_ARENA_MAX as `npm start` sets them (docs/decisions/034, 089). Acknowledged
  // events are queryable within half a second instead of the loader's 3 s (ADR 160): the journeys that
  // check a screen right after sending (Events, funnels, incidents, Live's tiles, alerts) wait for the
  // loader, not for the product's answer; the loader's own timing is covered by server tests.
  const fullEnv: NodeJS.ProcessEnv = {
    UV_THREADPOOL_SIZE: '16',
    MALLOC_ARENA_MAX: '2',
    INGEST_LOAD_DELAY_MS: '500',
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
  };
  if (process.env.POLYFLOW_SERVER_ENTRY) fullEnv.CONSOLE_DIR ??= join(repoRoot, 'apps/console/dist');
  const server = spawn(process.execPath, [entry], {
    cwd: repoRoot,
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  server.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const output = () => log.join('');

  // A start takes a second or two alone; `npm test` runs the journeys beside vitest and the type checks
  // (ADR 088), and a busy shared machine makes it longer. The loop goes on as soon as the server answers.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`Polyflow exited with ${server.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      server.kill('SIGKILL');
      throw new Error(`Polyflow did not answer ${url}/api/v1/health:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    output,
    async stop() {
      if (server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
