import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrations.ts';

/** A PostgreSQL cluster in a temporary directory, for one test run. */
export type ThrowawayPostgres = { adminUrl: string; stop(): Promise<void> };

function findBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (!newest) {
    throw new Error(
      'PostgreSQL server binaries not found in /usr/lib/postgresql/*/bin. The account store tests need them: ' +
        "install Debian's package with `sudo apt-get install -y postgresql` (or run `npm test`, which does).",
    );
  }
  return path.join(root, newest, 'bin');
}

function freePort(): Promise<number> {
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

/** PostgreSQL refuses to run as root, so as root the commands run as the `postgres` user. */
function runAsOwner(isRoot: boolean, command: string, args: string[]): void {
  const [file, fileArgs] = isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  execFileSync(file, fileArgs, { stdio: 'pipe' });
}

export async function startPostgres(): Promise<ThrowawayPostgres> {
  const bin = findBinDir();
  const isRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-pg-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  if (isRoot) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  try {
    runAsOwner(isRoot, path.join(bin, 'initdb'), [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    // Durability is pointless for a cluster that is deleted after the run; speed is not.
    const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    runAsOwner(isRoot, path.join(bin, 'pg_ctl'), [
      '-D',
      dataDir,
      '-o',
      serverOptions,
      '-l',
      logFile,
      '-w',
      'start',
    ]);
  } catch (error) {
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`Could not start the throwaway PostgreSQL: ${stderr}\n${log}`);
  }

  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        runAsOwner(isRoot, path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (!uid || !gid)
    throw new Error("Running as root but there is no `postgres` user; install Debian's postgresql.");
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * The run's migrated database (global-setup.ts makes it once): a test server's database is a copy of it
 * (`CREATE DATABASE … TEMPLATE`), so that each server finds its migrations done instead of running them
 * again (ADR 150).
 */
export const MIGRATED_TEMPLATE = 'pf_migrated_template';

export async function createMigratedTemplate(adminUrl: string): Promise<void> {
  const url = await createTestDatabase(adminUrl, MIGRATED_TEMPLATE);
  const { db } = await createDatabase({ databaseUrl: url, dataDir: '' });
  try {
    await migrateToLatest(db);
  } finally {
    // A template must have no connections left when it is copied.
    await db.destroy();
  }
}

/**
 * A fresh database in the throwaway cluster (one per test file keeps files independent): empty, or a copy
 * of `template`.
 */
export async function createTestDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(
      `CREATE DATABASE "${name.replace(/[^a-z0-9_]/g, '_')}"${template ? ` TEMPLATE "${template}"` : ''}`,
    );
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name.replace(/[^a-z0-9_]/g, '_')}`;
  return url.toString();
}
