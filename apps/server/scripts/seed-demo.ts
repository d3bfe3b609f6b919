/**
 * `npm run seed:demo`: a demo account and project with ~90 days of realistic events, in the stores the
 * server uses (same DATA_DIR / DATABASE_URL configuration). Run it while the server is stopped: DuckDB
 * allows one process per file. Options: --email <address> --password <text> --users <count> --days <count>.
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
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      [
        `Demo data ready in ${seconds} s: ${written.toLocaleString('en-US')} events over ${days} days for project "${account.project.name}".`,
        `  accounts: ${engine === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : path.join(config.dataDir, 'polyflow.sqlite')}`,
        `  events:   ${eventFile}`,
        '',
        `Start the server (npm start) and log in at ${config.publicUrl}/ with`,
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
