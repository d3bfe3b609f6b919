import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import SQLite from 'libsql';
import type { Config } from '../config.ts';
import { parseClickHouseUrl } from '../modules/event-store/clickhouse/client.ts';
import { checkpointEventFile, EventFileLockedError } from '../modules/event-store/duckdb/checkpoint-file.ts';
import { AdminError } from './admin-error.ts';
import { askServer } from './server-socket.ts';

const SQLITE_FILE = 'polyflow.sqlite';
const PG_DUMP_FILE = 'polyflow.pgdump';
const DUCKDB_FILE = 'events.duckdb';
const MANIFEST = 'polyflow-backup.json';

const HELD_BY_SERVER = 'is open in a running Polyflow server';

type Manifest = { createdAt: string; accounts: 'sqlite' | 'postgres'; events: boolean };

/**
 * Opens the event store alone, checkpointed (everything in its WAL written into the file), or explains
 * that a server holds it: DuckDB lets one process open a database file.
 */
async function withEventStore(dataDir: string, use: (file: string) => void): Promise<void> {
  const file = path.join(dataDir, DUCKDB_FILE);
  if (!existsSync(file)) throw new AdminError(`No event store at ${file}.`);
  try {
    await checkpointEventFile(file);
  } catch (error) {
    if (error instanceof EventFileLockedError) {
      throw new AdminError(
        `The event store ${file} ${HELD_BY_SERVER}, and DuckDB lets one process open it. ` +
          'Stop the server to back up or restore events (acknowledged events wait in DATA_DIR/ingest-log and are ' +
          'loaded on the next start), or run `backup --accounts-only` now.',
      );
    }
    throw error;
  }
  use(file);
}

/**
 * The event store and the ingestion log into `target`: by file with the server stopped, or by the running
 * server itself through its admin socket (DuckDB lets one process open the file; ADR 015).
 */
async function backupEvents(dataDir: string, target: string): Promise<void> {
  try {
    await withEventStore(dataDir, (file) => copyFileSync(file, path.join(target, DUCKDB_FILE)));
    const log = path.join(dataDir, 'ingest-log');
    if (existsSync(log)) cpSync(log, path.join(target, 'ingest-log'), { recursive: true });
    return;
  } catch (error) {
    if (!(error instanceof AdminError && error.message.includes(HELD_BY_SERVER))) throw error;
    const answer = await askServer(dataDir, { command: 'copy-events', to: target });
    if (!answer) throw error;
    if (!answer.ok) throw new AdminError(`The running server could not copy the events: ${answer.message}`);
  }
}

function run(command: string, args: string[], what: string): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new AdminError(`${command} is not installed: it is needed to ${what} (PostgreSQL's client tools).`);
  }
  if (result.status !== 0) throw new AdminError(`${command} failed: ${result.stderr.trim()}`);
}

/** What backs up the events when they are in ClickHouse (docs/scaling.md, "Backup"). */
const clickHouseBackup = (url: string) =>
  `ClickHouse's own \`BACKUP DATABASE ${parseClickHouseUrl(url).database} TO Disk('backups', 'polyflow.zip')\` ` +
  '(or TO S3(...)) while it runs, and RESTORE to bring them back, or the clickhouse-backup tool (docs/scaling.md, "Backup")';

/** A consistent copy of the accounts and the events into a new directory, while the server runs or not. */
export async function backup(
  config: Config,
  options: { to?: string; accountsOnly?: boolean },
): Promise<string> {
  if (!options.to) throw new AdminError('--to: the directory to write the backup into.');
  if (config.clickhouseUrl && !options.accountsOnly) {
    // Nothing written: a backup named "full" that lacks the events would be found out at restore time.
    throw new AdminError(
      'CLICKHOUSE_URL is set: the events are in ClickHouse, and this command backs up nothing of ClickHouse. ' +
        `Back the events up with ${clickHouseBackup(config.clickhouseUrl)}. ` +
        'Back up the accounts with `backup --to DIR --accounts-only`.',
    );
  }
  const target = path.resolve(options.to);
  if (existsSync(target) && readdirSync(target).length > 0) throw new AdminError(`${target} is not empty.`);
  mkdirSync(target, { recursive: true });
  try {
    // Events first: the accounts copied after them hold every project their events belong to.
    if (!options.accountsOnly) await backupEvents(config.dataDir, target);
    if (config.databaseUrl) {
      run(
        'pg_dump',
        ['--format=custom', `--file=${path.join(target, PG_DUMP_FILE)}`, config.databaseUrl],
        'back up PostgreSQL',
      );
    } else {
      const source = new SQLite(path.join(config.dataDir, SQLITE_FILE), {
        readonly: true,
        fileMustExist: true,
      });
      try {
        // One read transaction: a consistent copy while the server keeps writing (WAL mode).
        source.prepare('VACUUM INTO ?').run(path.join(target, SQLITE_FILE));
      } finally {
        source.close();
      }
    }
  } catch (error) {
    rmSync(target, { recursive: true, force: true });
    throw error;
  }
  const manifest: Manifest = {
    createdAt: new Date().toISOString(),
    accounts: config.databaseUrl ? 'postgres' : 'sqlite',
    events: !options.accountsOnly,
  };
  writeFileSync(path.join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  const backedUp = `Backed up ${manifest.accounts === 'sqlite' ? 'the SQLite accounts' : 'PostgreSQL'}${manifest.events ? ' and the events' : ''} to ${target}.`;
  return config.clickhouseUrl
    ? `${backedUp}\nThe events are in ClickHouse (CLICKHOUSE_URL), not in this backup: back them up with ${clickHouseBackup(config.clickhouseUrl)}.`
    : backedUp;
}

/** Puts a backup back into DATA_DIR (or PostgreSQL); the server must be stopped. */
export async function restore(config: Config, options: { from?: string; force?: boolean }): Promise<string> {
  if (!options.from) throw new AdminError('--from: the directory of a backup.');
  const source = path.resolve(options.from);
  const manifestFile = path.join(source, MANIFEST);
  if (!existsSync(manifestFile)) throw new AdminError(`${source} is not a Polyflow backup (no ${MANIFEST}).`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  if (manifest.accounts === 'postgres' && !config.databaseUrl) {
    throw new AdminError('This backup holds PostgreSQL accounts: set DATABASE_URL to restore them.');
  }
  if (manifest.accounts === 'sqlite' && config.databaseUrl) {
    throw new AdminError(
      'This backup holds SQLite accounts: unset DATABASE_URL to restore them into DATA_DIR.',
    );
  }
  if (manifest.events && config.clickhouseUrl) {
    throw new AdminError(
      'This backup holds an embedded DuckDB event store, which a node with CLICKHOUSE_URL set does not read. ' +
        'Restore it without CLICKHOUSE_URL, then copy its events with `copy-events --to-clickhouse` (docs/scaling.md); ' +
        "ClickHouse's own events come back with its RESTORE.",
    );
  }
  const dataDir = config.dataDir;
  const existing = [SQLITE_FILE, DUCKDB_FILE].filter((name) => existsSync(path.join(dataDir, name)));
  if (existing.length > 0 && !options.force) {
    throw new AdminError(
      `${dataDir} holds ${existing.join(' and ')}: add --force to replace them with the backup.`,
    );
  }
  // Refuses while a server holds the event store (and so, the accounts too).
  if (existsSync(path.join(dataDir, DUCKDB_FILE))) await withEventStore(dataDir, () => undefined);
  mkdirSync(dataDir, { recursive: true });
  if (manifest.events) {
    for (const name of [DUCKDB_FILE, `${DUCKDB_FILE}.wal`]) rmSync(path.join(dataDir, name), { force: true });
    copyFileSync(path.join(source, DUCKDB_FILE), path.join(dataDir, DUCKDB_FILE));
    rmSync(path.join(dataDir, 'ingest-log'), { recursive: true, force: true });
    if (existsSync(path.join(source, 'ingest-log'))) {
      cpSync(path.join(source, 'ingest-log'), path.join(dataDir, 'ingest-log'), { recursive: true });
    }
  }
  if (manifest.accounts === 'postgres') {
    run(
      'pg_restore',
      [
        '--clean',
        '--if-exists',
        '--no-owner',
        `--dbname=${config.databaseUrl}`,
        path.join(source, PG_DUMP_FILE),
      ],
      'restore PostgreSQL',
    );
  } else {
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(path.join(dataDir, `${SQLITE_FILE}${suffix}`), { force: true });
    copyFileSync(path.join(source, SQLITE_FILE), path.join(dataDir, SQLITE_FILE));
  }
  return `Restored the backup of ${manifest.createdAt} into ${manifest.accounts === 'postgres' ? 'PostgreSQL' : dataDir}${manifest.events ? ', events included' : ' (accounts only)'}.`;
}
