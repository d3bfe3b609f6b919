/**
 * `npm run seed:demo` (from the repository root, like `npm start`): a demo account and project with ~90 days
 * of realistic events, in the stores the server uses (same DATA_DIR / DATABASE_URL configuration; a relative
 * DATA_DIR, such as the default `./data`, is read from the directory it runs in, so the root script runs it
 * there and not in apps/server). Run it while the server is stopped: DuckDB allows one process per file.
 * Options: --email <address> --password <text> --users <count> --days <count>.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrations.ts';
import { systemClock } from '../src/lib/clock.ts';
import {
  createDuckDbEventStore,
  type DuckDbEventStore,
} from '../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { ensureDemoAccount } from './demo/demo-account.ts';
import { ensureDemoDefinitions } from './demo/demo-definitions.ts';
import { replaceDemoEvents } from './demo/demo-events.ts';

const HOUR = 3_600_000;

async function openEventStore(file: string): Promise<DuckDbEventStore> {
  try {
    return await createDuckDbEventStore({ file });
  } catch (error) {
    if (error instanceof Error && /lock/i.test(error.message)) {
      const holder = /PID (\d+)/.exec(error.message)?.[1];
      throw new SeedError(
        `The event store ${file} is open in another process${holder ? ` (PID ${holder})` : ''}, most likely the Polyflow server.\n` +
          'DuckDB allows one process per file: stop the server, run `npm run seed:demo` again, then start the server.',
      );
    }
    throw error;
  }
}

class SeedError extends Error {}

/** http://localhost:3000 by default; PUBLIC_URL or PORT when this run was given one. */
function serverAddress(config: { publicUrl: string }): string {
  const isDefault = !process.env.PUBLIC_URL && !process.env.PORT;
  return isDefault ? `${config.publicUrl} unless you set PORT` : config.publicUrl;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      email: { type: 'string', default: 'demo@polyflow.dev' },
      password: { type: 'string', default: 'polyflow-demo' },
      users: { type: 'string', default: '4000' },
      days: { type: 'string', default: '90' },
    },
  });
  const users = Number(values.users);
  const days = Number(values.days);
  if (!Number.isInteger(users) || users < 1 || !Number.isInteger(days) || days < 1 || days > 3650) {
    throw new SeedError('--users and --days must be positive whole numbers (days at most 3650).');
  }
  if (values.password.length < 8) throw new SeedError('--password must be at least 8 characters.');
  const config = loadConfig(process.env);
  const started = performance.now();

  // The event store first: if the server holds it, stop before touching the accounts.
  const eventFile = path.join(config.dataDir, 'events.duckdb');
  const store = await openEventStore(eventFile);
  const { db, engine } = await createDatabase(config);
  try {
    await migrateToLatest(db);
    const account = await ensureDemoAccount(db, {
      email: values.email,
      password: values.password,
      clock: systemClock,
      eventStore: store,
    });
    // A whole hour as the end: the same data for every run within the hour, and nothing in the future.
    const endMs = Math.floor(Date.now() / HOUR) * HOUR;
    const written = await replaceDemoEvents(store, account.project.id, { endMs, days, users });
    await ensureDemoDefinitions(db, {
      actor: { id: account.userId, email: account.email, ip: 'local' },
      projectId: account.project.id,
      clock: systemClock,
      eventStore: store,
      endMs,
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      [
        `Demo data ready in ${seconds} s: ${written.toLocaleString('en-US')} events over ${days} days for project "${account.project.name}",`,
        '  with its goals, saved funnels and release annotations.',
        `  accounts: ${engine === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : path.join(config.dataDir, 'polyflow.sqlite')}`,
        `  events:   ${eventFile}`,
        '',
        // The seeder does not know the port the server will be started on: PORT is usually set for that start.
        `Start the server (npm start, with the same DATA_DIR) and log in at the address it prints (${serverAddress(config)}) with`,
        `  email:    ${account.email}`,
        `  password: ${account.password}`,
        `Project id ${account.project.id}, API key ${account.project.apiKey}, domains ${account.project.whitelistedDomains.join(', ')}.`,
      ].join('\n'),
    );
  } finally {
    await db.destroy();
    await store.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof SeedError || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
