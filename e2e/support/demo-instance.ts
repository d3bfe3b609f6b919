import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Page } from '@playwright/test';
import { startServerProcess } from './server-process.ts';
import { type ConsoleSession, logInByApi, signIn } from './session.ts';

const repoRoot = join(import.meta.dirname, '..', '..');
/** The demo login `npm run seed:demo` creates (its defaults). */
export const DEMO_LOGIN = { email: 'demo@polyflow.dev', password: 'polyflow-demo' };

/**
 * A Polyflow server of the spec file's own over a copy of a DATA_DIR filled by the demo seeder (`npm run
 * seed:demo`, the same script, run before any server opens it: DuckDB lets one process open the event
 * file). The shared e2e server cannot be seeded this way while it runs. Used by the Analytics, filters,
 * Acquisition, Incidents, Wallets, Events and phone-layout journeys.
 */
export interface DemoInstance {
  url: string;
  dataDir: string;
  projectId: string;
  /** The demo project's API key (its domains include localhost). */
  apiKey: string;
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

/** What the seeder printed about its demo project. */
interface Seeded {
  projectId: string;
  apiKey: string;
}

async function seed(dataDir: string, users: number, env: NodeJS.ProcessEnv): Promise<Seeded> {
  const seeded = await run(
    process.execPath,
    ['--import', 'tsx', 'apps/server/scripts/seed-demo.ts', '--users', String(users), '--days', '90'],
    { ...env, DATA_DIR: dataDir },
  );
  const projectId = /Project id ([0-9a-f-]{36})/.exec(seeded)?.[1];
  if (!projectId) throw new Error(`The demo seeder did not name its project:\n${seeded}`);
  return { projectId, apiKey: /API key (\S+),/.exec(seeded)?.[1] ?? '' };
}

/**
 * The seeded DATA_DIR for `users`, made once per run and copied by every spec file (and worker) that asks
 * for that size: seeding takes seconds of CPU, copying the stopped files a fraction of one. The first
 * process to ask seeds it (an atomic mkdir claims the size); the others wait for the finished copy. The
 * seeder ends its 90 days at the last whole hour, so the copies hold what a seed of their own would.
 * The cache lives in global setup's work directory (POLYFLOW_DEMO_CACHE), removed with the run's data.
 */
async function seededTemplate(users: number, env: NodeJS.ProcessEnv): Promise<{ dir: string } & Seeded> {
  const cache = process.env.POLYFLOW_DEMO_CACHE;
  if (!cache) throw new Error('POLYFLOW_DEMO_CACHE is not set: run the tests through playwright.config.ts');
  const dir = join(cache, `users-${users}`);
  const ready = join(dir, 'seeded.json');
  try {
    mkdirSync(dir, { recursive: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another worker is seeding this size: wait for its answer (a failed seed leaves failed.txt).
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (existsSync(ready)) return { dir: join(dir, 'data'), ...JSON.parse(readFileSync(ready, 'utf8')) };
      if (existsSync(join(dir, 'failed.txt'))) throw new Error(readFileSync(join(dir, 'failed.txt'), 'utf8'));
      if (Date.now() > deadline) throw new Error(`No demo seed of ${users} users within 3 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    const seeded = await seed(join(dir, 'data'), users, env);
    writeFileSync(ready, JSON.stringify(seeded));
    return { dir: join(dir, 'data'), ...seeded };
  } catch (error) {
    writeFileSync(join(dir, 'failed.txt'), String(error));
    throw error;
  }
}

export async function startSeededDemo({ users = 600 }: { users?: number } = {}): Promise<DemoInstance> {
  const workDir = mkdtempSync(join(tmpdir(), 'polyflow-demo-e2e-'));
  const dataDir = join(workDir, 'data');
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;

  const template = await seededTemplate(users, env);
  cpSync(template.dir, dataDir, { recursive: true });
  const { projectId, apiKey } = template;

  const server = await startServerProcess({ ...env, AUTH_RATE_LIMIT_MAX: '1000' });
  const stop = server.stop;
  return {
    url: server.url,
    dataDir,
    projectId,
    apiKey,
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

const demoSessions = new WeakMap<DemoInstance, Promise<ConsoleSession>>();

/**
 * Signs the page's context in as the seeded demo account without the form (one API login per demo server):
 * the journey opens its own screen next, and the server is spared the Analytics screen the form lands on.
 */
export async function signInAsDemo(page: Page, demo: DemoInstance): Promise<void> {
  let session = demoSessions.get(demo);
  if (!session) {
    session = logInByApi(demo.url, DEMO_LOGIN);
    demoSessions.set(demo, session);
  }
  await signIn(page, demo.url, await session);
}
