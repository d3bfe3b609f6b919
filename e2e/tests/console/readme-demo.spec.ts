import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '../../support/free-port.ts';
import { snap } from '../../support/screenshots.ts';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/**
 * The README's demo flow as a newcomer follows it: `npm run seed:demo` from the repository root, then
 * `npm start` there, then log in as demo@polyflow.dev. Neither command is given a DATA_DIR: both must use
 * the same default `./data`. The "repository root" is a directory of links to this checkout's files, so that
 * its `./data` is a throwaway one and not the developer's.
 */
let checkout: string;
let server: ChildProcess | undefined;
let serverOutput = '';

test.beforeAll(() => {
  checkout = mkdtempSync(join(tmpdir(), 'polyflow-readme-'));
  for (const entry of readdirSync(repoRoot)) {
    if (entry === 'data' || entry === '.git' || entry === 'test-results') continue;
    symlinkSync(join(repoRoot, entry), join(checkout, entry));
  }
});
test.afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    // npm runs the server as a child of its own: stop the whole process group, not just npm.
    process.kill(-server.pid, 'SIGTERM');
    await exited;
  }
  rmSync(checkout, { recursive: true, force: true });
});

/** The newcomer's environment: no DATA_DIR, DATABASE_URL, SMTP or PORT of the test runner's. */
function newcomerEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['DATA_DIR', 'DATABASE_URL', 'SMTP_URL', 'PUBLIC_URL', 'PORT', 'POLYFLOW_URL']) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

function npm(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`npm ${args[1]}:\n${output}`)),
    );
  });
}

test('README: seed the demo from the repository root, npm start, log in as the demo account', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // The README's command; `--users` (its documented option) keeps the seed at the size the other demo
  // journeys use: the default 4,000 users cost this journey a minute of CPU and check nothing more.
  const seeded = await npm(['run', 'seed:demo', '--', '--users', '600'], newcomerEnv());
  expect(seeded).toContain(`events:   ${join(checkout, 'data', 'events.duckdb')}`);
  // The seeder cannot know the port `npm start` will be given: it names the default and says so.
  expect(seeded).toContain('http://localhost:3000 unless you set PORT');
  expect(readdirSync(join(checkout, 'data'))).toContain('polyflow.sqlite');

  // The README's port 3000 may be taken on a test machine; PORT is the README's own setting for that.
  const port = await freePort();
  server = spawn('npm', ['start'], {
    cwd: checkout,
    env: newcomerEnv({ PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that the test can stop npm and the server it started together.
    detached: true,
  });
  server.stdout?.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
  const url = `http://localhost:${port}`;
  await expect
    .poll(
      async () => {
        if (server?.exitCode !== null) throw new Error(`npm start exited:\n${serverOutput}`);
        return fetch(`${url}/api/v1/health`).then(
          (response) => response.status,
          () => 0,
        );
      },
      { timeout: 60_000, intervals: [250] },
    )
    .toBe(200);

  await page.goto(`${url}/`);
  await page.getByLabel('Email').fill('demo@polyflow.dev');
  await page.getByLabel('Password').fill('polyflow-demo');
  await page.getByRole('button', { name: 'Log In' }).click();
  // Its only project opens by itself, with figures from the seeded events.
  await expect(page).toHaveURL(/\/console\/[0-9a-f-]{36}\/analytics/);
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
  await expect(page.getByText('Demo DEX').first()).toBeVisible();
  const total = page
    .locator('dt', { hasText: /^Total Transactions$/ })
    .locator('xpath=following-sibling::dd[1]//p[1]');
  await expect(total).toHaveText(/^[1-9][\d,]*$/);
  await snap(page, 'readme-demo-analytics-1280');

  // A process manager stops `npm start` with SIGTERM to npm alone: npm passes it on to the server, which stops
  // (rather than keep the port from the next start, as it did while a shell stood between them).
  const stopped = new Promise((resolve) => server?.once('exit', resolve));
  process.kill(server.pid as number, 'SIGTERM');
  await stopped;
  await expect
    .poll(
      () =>
        fetch(`${url}/api/v1/health`).then(
          () => 'serving',
          () => 'stopped',
        ),
      { timeout: 10_000, intervals: [250] },
    )
    .toBe('stopped');
});
