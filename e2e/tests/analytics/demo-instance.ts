import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../support/free-port.ts';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/** The demo login `npm run seed:demo` creates (its defaults). */
export const DEMO_LOGIN = { email: 'demo@polyflow.dev', password: 'polyflow-demo' };

export interface DemoInstance {
  url: string;
  stop(): Promise<void>;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${args.join(' ')} → ${code}\n${output}`)),
    );
  });
}

async function waitForHealth(url: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`Polyflow exited with ${server.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Polyflow did not answer ${url}/api/v1/health:\n${output()}`);
}

/**
 * A Polyflow server of this spec's own over the demo data: the real seeder (`npm run seed:demo`, whose
 * script runs under tsx) fills a fresh DATA_DIR, then the built server starts on it. The shared e2e
 * server cannot be used: DuckDB lets one process hold the event file, and the seeder must write it.
 */
export async function startDemoInstance({ users = 1500 }: { users?: number } = {}): Promise<DemoInstance> {
  const entry = join(repoRoot, 'apps/server/dist/main.js');
  if (!existsSync(entry)) throw new Error('The server is not built: run `npm run build` first.');
  const workDir = mkdtempSync(join(tmpdir(), 'polyflow-analytics-e2e-'));
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: join(workDir, 'data'),
    PUBLIC_URL: url,
    AUTH_RATE_LIMIT_MAX: '1000',
    LOG_LEVEL: 'warn',
  };
  delete env.SMTP_URL;
  delete env.DATABASE_URL;

  const tsx = join(repoRoot, 'node_modules/tsx/dist/cli.mjs');
  await run(process.execPath, [tsx, 'apps/server/scripts/seed-demo.ts', '--users', String(users)], env);

  const server = spawn(process.execPath, [entry], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  server.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  try {
    await waitForHealth(url, server, () => log.join(''));
  } catch (error) {
    server.kill('SIGKILL');
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (process.env.E2E_KEEP_DATA !== '1') rmSync(workDir, { recursive: true, force: true });
    },
  };
}
