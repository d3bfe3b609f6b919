import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Page } from '@playwright/test';
import { freePort } from './free-port.ts';

const repoRoot = join(import.meta.dirname, '..', '..');
/** The demo login `npm run seed:demo` creates (its defaults). */
export const DEMO_LOGIN = { email: 'demo@polyflow.dev', password: 'polyflow-demo' };

/**
 * A Polyflow server of the spec file's own over a DATA_DIR filled by the demo seeder (`npm run seed:demo`,
 * the same script, run before the server starts: DuckDB lets one process open the event file). The shared
 * e2e server cannot be seeded this way while it runs. Used by the analytics, acquisition and incident journeys.
 */
export interface DemoInstance {
  url: string;
  dataDir: string;
  projectId: string;
  stop(): Promise<void>;
  /** Reads one stored event's wallet-state columns; stops the server first (the file is single-process). */
  readStoredEvent(id: string): Promise<Record<string, unknown> | undefined>;
  dispose(): Promise<void>;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} failed:\n${output}`)),
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
  server.kill('SIGKILL');
  throw new Error(`Polyflow did not answer ${url}/api/v1/health:\n${output()}`);
}

export async function startSeededDemo({ users = 600 }: { users?: number } = {}): Promise<DemoInstance> {
  const entry = join(repoRoot, 'apps/server/dist/main.js');
  if (!existsSync(entry)) throw new Error('The server is not built: run `npm run build` first.');
  const workDir = mkdtempSync(join(tmpdir(), 'polyflow-demo-e2e-'));
  const dataDir = join(workDir, 'data');
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;

  const seeded = await run(
    process.execPath,
    ['--import', 'tsx', 'apps/server/scripts/seed-demo.ts', '--users', String(users), '--days', '90'],
    env,
  );
  const projectId = /Project id ([0-9a-f-]{36})/.exec(seeded)?.[1];
  if (!projectId) throw new Error(`The demo seeder did not name its project:\n${seeded}`);

  const port = await freePort();
  const url = `http://localhost:${port}`;
  const server = spawn(process.execPath, [entry], {
    cwd: repoRoot,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, AUTH_RATE_LIMIT_MAX: '1000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  server.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  await waitForHealth(url, server, () => log.join(''));

  const stop = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return {
    url,
    dataDir,
    projectId,
    stop,
    async readStoredEvent(id) {
      await stop();
      const instance = await DuckDBInstance.create(join(dataDir, 'events.duckdb'), {
        access_mode: 'READ_ONLY',
      });
      const connection = await instance.connect();
      try {
        const reader = await connection.runAndReadAll(
          `SELECT id, type, gas_balance::VARCHAR AS gas_balance, wallet_nonce::VARCHAR AS wallet_nonce,
                  chain_id, wallet_provider, wallet_address, error_message
             FROM events WHERE id = $id`,
          { id },
        );
        return reader.getRowObjectsJson()[0] as Record<string, unknown> | undefined;
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    },
    async dispose() {
      await stop();
      if (process.env.E2E_KEEP_DATA !== '1') rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** Logs in as the seeded demo account through the console's own form. */
export async function logInAsDemo(page: Page, demo: DemoInstance): Promise<void> {
  await page.goto(`${demo.url}/`);
  await page.getByLabel('Email').fill(DEMO_LOGIN.email);
  await page.getByLabel('Password').fill(DEMO_LOGIN.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(/\/console\//);
}
