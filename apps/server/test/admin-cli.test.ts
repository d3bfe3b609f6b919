import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { runAdmin } from '../src/admin/run-admin.ts';
import { buildApp } from '../src/app.ts';
import { pageView, postBatch, storedEvents } from './ingestion/support.ts';
import { apiClient } from './support/client.ts';
import { testConfig } from './support/harness.ts';
import { createTestDatabase } from './support/postgres.ts';
import { seed } from './support/seed.ts';
import { serverCommand } from './support/server-command.ts';
import { startSmtpSink } from './support/smtp-sink.ts';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'polyflow-admin-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A command as the command line runs it (`runAdmin`, what cli.ts calls), in this process: the same
 * arguments, environment, output and exit code, without starting Node and loading the server's code again
 * (about a second of CPU per command). The commands where a process of its own is the point (the help and
 * errors an operator sees, a backup beside a server that holds the event store) go through
 * `adminProcess`: the real command.
 */
async function admin(dataDir: string, ...args: string[]): Promise<AdminResult> {
  return adminWith({}, dataDir, ...args);
}

type AdminResult = { code: number; stdout: string; stderr: string };

async function adminWith(
  env: Record<string, string>,
  dataDir: string,
  ...args: string[]
): Promise<AdminResult> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, adminEnv(env, dataDir), {
    log: (value) => {
      stdout += `${format(value)}\n`;
    },
    error: (value) => {
      stderr += `${format(value)}\n`;
    },
  });
  return { code, stdout, stderr };
}

const adminEnv = (env: Record<string, string>, dataDir: string) => ({
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  ...env,
});

/** The CLI as an operator runs it: its own process, configured by the environment like the server. */
async function adminProcess(dataDir: string, ...args: string[]): Promise<AdminResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, serverCommand('admin', ...args), {
      cwd: serverRoot,
      env: adminEnv({}, dataDir),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function login(app: FastifyInstance, email: string, password: string) {
  return apiClient(app).post('login', { body: { email, password } });
}

describe('npm run admin', () => {
  const dataDir = mkdtempSync(path.join(scratch, 'data-'));

  it('explains itself with --help, and refuses unknown commands and bad input clearly (no stack trace)', async () => {
    const help = await adminProcess(dataDir, '--help');
    expect(help.code).toBe(0);
    for (const command of [
      'create-user',
      'reset-password',
      'verify-email',
      'list-projects',
      'backup',
      'restore',
      'send-report',
    ]) {
      expect(help.stdout).toContain(command);
    }
    const unknown = await adminProcess(dataDir, 'drop-everything');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command: drop-everything');
    const badEmail = await adminProcess(
      dataDir,
      'create-user',
      '--email',
      'not-an-email',
      '--password',
      'long enough',
    );
    expect(badEmail).toMatchObject({
      code: 1,
      stderr: 'Error: --email: "not-an-email" is not an email address.\n',
    });
    const unknownUser = await adminProcess(dataDir, 'verify-email', '--email', 'nobody@example.com');
    expect(unknownUser).toMatchObject({
      code: 1,
      stderr: 'Error: No user with the email nobody@example.com.\n',
    });
    for (const result of [unknown, badEmail, unknownUser]) expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('creates a user, verifies the email, resets the password: the server logs them in accordingly', async () => {
    const created = await admin(
      dataDir,
      'create-user',
      '--email',
      'Ops@Example.com',
      '--password',
      'first password',
    );
    expect(created).toMatchObject({ code: 0 });
    expect(created.stdout).toContain('Created ops@example.com (not verified');
    expect(
      (await admin(dataDir, 'create-user', '--email', 'ops@example.com', '--password', 'x'.repeat(9))).stderr,
    ).toBe('Error: A user with the email ops@example.com exists already.\n');

    let app = await buildApp(testConfig(dataDir));
    expect((await login(app, 'ops@example.com', 'first password')).json()).toMatchObject({
      errorCode: 'USER_NOT_YET_VERIFIED',
    });
    await app.close();

    expect((await admin(dataDir, 'verify-email', '--email', 'ops@example.com')).stdout).toBe(
      'Verified ops@example.com.\n',
    );
    expect(
      (await admin(dataDir, 'reset-password', '--email', 'ops@example.com', '--password', 'second password'))
        .code,
    ).toBe(0);

    app = await buildApp(testConfig(dataDir));
    try {
      expect((await login(app, 'ops@example.com', 'second password')).statusCode).toBe(200);
      expect((await login(app, 'ops@example.com', 'first password')).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  }, 120_000);

  it('lists projects, backs up the accounts while the server runs, everything once it stops, and restores', async () => {
    const app = await buildApp(testConfig(dataDir));
    let projectId: string;
    try {
      const { project } = await seed(app.services)
        .user()
        .verified()
        .project('Shop')
        .apiKey()
        .domain('app.example.com');
      projectId = project.id;
      const events = [pageView({ path: '/a' }), pageView({ path: '/b' })];
      expect((await postBatch(app, { apiKey: project.apiKey as string, events })).statusCode).toBe(200);
      await app.services.events.flush();

      const listed = await admin(dataDir, 'list-projects');
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(
        new RegExp(`${project.id}\\t\\S+@\\S+\\tShop\\tkey\\tapp\\.example\\.com\\t`),
      );

      // The running server holds the event store: a full backup says so and leaves nothing behind.
      const whileRunning = await adminProcess(
        dataDir,
        'backup',
        '--to',
        path.join(scratch, 'full-too-early'),
      );
      expect(whileRunning.code).toBe(1);
      expect(whileRunning.stderr).toContain('is open in a running Polyflow server');
      expect(existsSync(path.join(scratch, 'full-too-early'))).toBe(false);
      const accountsOnly = await admin(
        dataDir,
        'backup',
        '--to',
        path.join(scratch, 'accounts'),
        '--accounts-only',
      );
      expect(accountsOnly).toMatchObject({ code: 0 });
    } finally {
      await app.close();
    }

    const full = path.join(scratch, 'full');
    expect((await admin(dataDir, 'backup', '--to', full)).stdout).toContain('and the events');
    expect((await admin(dataDir, 'backup', '--to', full)).stderr).toBe(`Error: ${full} is not empty.\n`);

    const restoredDir = mkdtempSync(path.join(scratch, 'restored-'));
    expect((await admin(restoredDir, 'restore', '--from', full)).stdout).toContain('events included');
    expect((await admin(restoredDir, 'restore', '--from', full)).stderr).toContain('add --force');
    const restored = await buildApp(testConfig(restoredDir));
    try {
      expect((await login(restored, 'ops@example.com', 'second password')).statusCode).toBe(200);
      const rows = await storedEvents(restored.services, projectId);
      expect(rows.map((row) => row.path).sort()).toEqual(['/a', '/b']);
    } finally {
      await restored.close();
    }

    // The accounts-only backup, taken while the server ran, is a consistent SQLite file too.
    const accountsDir = mkdtempSync(path.join(scratch, 'accounts-restored-'));
    expect((await admin(accountsDir, 'restore', '--from', path.join(scratch, 'accounts'))).code).toBe(0);
    expect((await admin(accountsDir, 'list-projects')).stdout).toContain(projectId);
  }, 240_000);

  it('with CLICKHOUSE_URL set, backs up the accounts only and says how to back up ClickHouse instead', async () => {
    const nodeDir = mkdtempSync(path.join(scratch, 'clickhouse-node-'));
    const app = await buildApp(testConfig(nodeDir));
    await app.close();
    // Nothing listens there: the command must not need ClickHouse to say what it does not do.
    const clickhouse = { CLICKHOUSE_URL: 'http://polyflow:secret@127.0.0.1:1/analytics' };

    const full = await adminWith(clickhouse, nodeDir, 'backup', '--to', path.join(scratch, 'ch-full'));
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/^Error: CLICKHOUSE_URL is set: the events are in ClickHouse/);
    expect(full.stderr).toContain('backs up nothing of ClickHouse');
    expect(full.stderr).toContain("BACKUP DATABASE analytics TO Disk('backups', 'polyflow.zip')");
    expect(full.stderr).toContain('clickhouse-backup');
    expect(full.stderr).toContain('--accounts-only');
    expect(full.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(path.join(scratch, 'ch-full'))).toBe(false);

    const accounts = await adminWith(
      clickhouse,
      nodeDir,
      'backup',
      '--to',
      path.join(scratch, 'ch-accounts'),
      '--accounts-only',
    );
    expect(accounts.code).toBe(0);
    expect(accounts.stdout).toContain('Backed up the SQLite accounts to');
    expect(accounts.stdout).toContain('The events are in ClickHouse (CLICKHOUSE_URL), not in this backup');
    expect(accounts.stdout).toContain('BACKUP DATABASE analytics');

    // A backup holding the embedded event store cannot be restored into a ClickHouse node as if it were one.
    const embedded = path.join(scratch, 'embedded-full');
    expect((await admin(nodeDir, 'backup', '--to', embedded)).code).toBe(0);
    const restoreDir = mkdtempSync(path.join(scratch, 'ch-restore-'));
    const restored = await adminWith(clickhouse, restoreDir, 'restore', '--from', embedded);
    expect(restored.code).toBe(1);
    expect(restored.stderr).toContain('which a node with CLICKHOUSE_URL set does not read');
    expect(restored.stderr).toContain('copy-events --to-clickhouse');
    expect(existsSync(path.join(restoreDir, 'polyflow.sqlite'))).toBe(false);
  }, 120_000);

  it('backs up everything while a listening server holds the event store, through its admin socket', async () => {
    const liveDir = mkdtempSync(path.join(scratch, 'live-'));
    const app = await buildApp(testConfig(liveDir));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const backupDir = path.join(scratch, 'hot');
    let projectId: string;
    try {
      const { project } = await seed(app.services)
        .user()
        .verified()
        .project('Live')
        .apiKey()
        .domain('app.example.com');
      projectId = project.id;
      const apiKey = project.apiKey as string;
      expect((await postBatch(app, { apiKey, events: [pageView({ path: '/loaded' })] })).statusCode).toBe(
        200,
      );
      await app.services.events.flush();
      // Acknowledged, perhaps not loaded yet: the backup takes the ingestion log too.
      expect((await postBatch(app, { apiKey, events: [pageView({ path: '/logged' })] })).statusCode).toBe(
        200,
      );

      const hot = await adminProcess(liveDir, 'backup', '--to', backupDir);
      expect(hot).toMatchObject({ code: 0, stderr: '' });
      expect(hot.stdout).toContain('and the events');

      // Written after the backup: not in it.
      expect((await postBatch(app, { apiKey, events: [pageView({ path: '/later' })] })).statusCode).toBe(200);
      await app.services.events.flush();
      expect((await storedEvents(app.services, projectId)).length).toBe(3);
    } finally {
      await app.close();
    }
    expect(existsSync(path.join(liveDir, 'admin.sock'))).toBe(false);

    const restoredDir = mkdtempSync(path.join(scratch, 'hot-restored-'));
    expect((await admin(restoredDir, 'restore', '--from', backupDir)).stdout).toContain('events included');
    const restored = await buildApp(testConfig(restoredDir));
    try {
      await restored.services.events.flush();
      const rows = await storedEvents(restored.services, projectId);
      expect(rows.map((row) => row.path).sort()).toEqual(['/loaded', '/logged']);
      expect((await admin(restoredDir, 'list-projects')).stdout).toContain(projectId);
    } finally {
      await restored.close();
    }
  }, 240_000);

  it('sends a project’s report now through the running server, once per member and period', async () => {
    const liveDir = mkdtempSync(path.join(scratch, 'report-'));
    const stopped = await admin(liveDir, 'send-report', '--project', '00000000-0000-4000-8000-000000000000');
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('needs the server running');
    const sink = await startSmtpSink();
    const app = await buildApp(testConfig(liveDir, { smtpUrl: sink.url }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      // The scheduled sending runs on the leader (one node): this one, alone.
      expect(app.services.leadership.isLeading('reports')).toBe(true);
      const { user, project } = await seed(app.services).user().verified().project('Reported now');
      const nobody = await admin(liveDir, 'send-report', '--project', project.id);
      expect(nobody).toMatchObject({ code: 0, stderr: '' });
      expect(nobody.stdout).toContain('No member of the project has turned on weekly reports');
      const response = await apiClient(app).request('PUT', `projects/${project.id}/report-subscriptions/me`, {
        token: user.token,
        body: { weekly: true, monthly: true },
      });
      expect(response.statusCode).toBe(200);

      const sent = await admin(liveDir, 'send-report', '--project', project.id, '--kind', 'monthly');
      expect(sent).toMatchObject({ code: 0, stderr: '' });
      expect(sent.stdout).toMatch(
        /The monthly report of \w+ \d{4}: sent to 1 member\(s\) now; 0 already had it\./,
      );
      const email = await sink.waitFor(user.email, { subject: /^Monthly report for Reported now/ });
      expect(email.text).toContain('Turn them off: http://polyflow.test/api/v1/reports/unsubscribe?token=');
      const again = await admin(liveDir, 'send-report', '--project', project.id, '--kind', 'monthly');
      expect(again.stdout).toContain('sent to 0 member(s) now; 1 already had it.');

      const unknown = await admin(liveDir, 'send-report', '--project', 'nope');
      expect(unknown).toMatchObject({ code: 1 });
      expect(unknown.stderr).toContain('No project nope');
      const badKind = await admin(liveDir, 'send-report', '--project', project.id, '--kind', 'daily');
      expect(badKind.stderr).toContain('--kind: weekly or monthly.');
    } finally {
      await app.close();
      await sink.close();
    }
  }, 120_000);

  it('backs up PostgreSQL accounts with pg_dump while the server runs, and restores them into another database', async () => {
    const adminUrl = inject('postgresAdminUrl');
    const source = await createTestDatabase(adminUrl, `pf_backup_${Date.now()}`);
    const destination = await createTestDatabase(adminUrl, `pf_restore_${Date.now()}`);
    const dataDir = mkdtempSync(path.join(scratch, 'pg-'));
    const app = await buildApp(testConfig(dataDir, { databaseUrl: source }));
    let projectId: string;
    const backupDir = path.join(scratch, 'pg-backup');
    try {
      const { project } = await seed(app.services).user().verified().project('On Postgres');
      projectId = project.id;
      const accounts = await adminWith(
        { DATABASE_URL: source },
        dataDir,
        'backup',
        '--to',
        backupDir,
        '--accounts-only',
      );
      expect(accounts).toMatchObject({ code: 0, stderr: '' });
      expect(accounts.stdout).toContain('Backed up PostgreSQL');
      expect(existsSync(path.join(backupDir, 'polyflow.pgdump'))).toBe(true);
    } finally {
      await app.close();
    }
    const otherDir = mkdtempSync(path.join(scratch, 'pg-restored-'));
    expect((await admin(otherDir, 'restore', '--from', backupDir)).stderr).toContain('set DATABASE_URL');
    const restored = await adminWith({ DATABASE_URL: destination }, otherDir, 'restore', '--from', backupDir);
    expect(restored).toMatchObject({ code: 0, stderr: '' });
    const listed = await adminWith({ DATABASE_URL: destination }, otherDir, 'list-projects');
    expect(listed.stdout).toContain(`${projectId}\t`);
    expect(listed.stdout).toContain('On Postgres');
  }, 240_000);
});
