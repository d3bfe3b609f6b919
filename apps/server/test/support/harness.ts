import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { type BuildOptions, buildApp, type Services } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { fillFromTemplate } from './data-dir-template.ts';
import { chosenEventStore, clickHouseUrlFor, releaseClickHouseUrl } from './event-stores.ts';
import { createTestDatabase, MIGRATED_TEMPLATE } from './postgres.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

export const ENGINES = ['sqlite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

/**
 * The account engines of a file that runs in both vitest projects and crosses them with the event store: both
 * with DuckDB (the server project), SQLite alone with ClickHouse (server-clickhouse). What an account engine
 * changes is proven with DuckDB, what ClickHouse changes with SQLite; PostgreSQL with ClickHouse again proved
 * neither (docs/decisions/159).
 */
export const ENGINES_BESIDE_EVENT_STORE: readonly Engine[] =
  process.env.EVENT_STORE === 'clickhouse' ? ['sqlite'] : ENGINES;

/** A clock tests can move; starts at the real time, or stands still at a time set with `setTo`. */
export type TestClock = (() => Date) & { advance(ms: number): void; reset(): void; setTo(ms: number): void };

export function createTestClock(): TestClock {
  let offset = 0;
  let frozenMs: number | undefined;
  const clock = (() => new Date((frozenMs ?? Date.now()) + offset)) as TestClock;
  clock.advance = (ms) => {
    offset += ms;
  };
  clock.reset = () => {
    offset = 0;
    frozenMs = undefined;
  };
  clock.setTo = (ms) => {
    offset = 0;
    frozenMs = ms;
  };
  return clock;
}

export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    publicUrl: 'http://polyflow.test',
    databaseUrl: undefined,
    smtpUrl: undefined,
    mailFrom: 'Polyflow <no-reply@polyflow.test>',
    jwtSecret: randomBytes(32).toString('base64url'),
    consoleDir: path.join(dataDir, 'no-console'),
    docsDir: path.join(dataDir, 'no-docs'),
    trustProxy: false,
    // High enough that only the rate-limit tests ever reach it.
    authRateLimit: { max: 10_000, windowMs: 60_000 },
    logLevel: 'silent',
    ...overrides,
  };
}

export type TestApp = {
  app: FastifyInstance;
  services: Services;
  mail: SmtpSink;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
};

/**
 * What a test may pass to buildApp besides its config: the alert channels' recording sink, an event store
 * made otherwise than the run's engine makes it (in the same data directory).
 */
export type TestBuildOptions = Pick<BuildOptions, 'alertChannels' | 'eventStore'>;

/** A full server (real store on `engine`, real SMTP sink) in a temp dir. */
export async function startTestApp(
  engine: Engine,
  overrides: Partial<Config> = {},
  buildOptions: TestBuildOptions = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-test-'));
  const mail = await startSmtpSink();
  // Several nodes of one deployment share a database: the first creates it, the others get its URL.
  const databaseUrl =
    overrides.databaseUrl ??
    (engine === 'postgres'
      ? await createTestDatabase(
          inject('postgresAdminUrl'),
          `pf_${randomBytes(6).toString('hex')}`,
          MIGRATED_TEMPLATE,
        )
      : undefined);
  // With EVENT_STORE=clickhouse the config names the run's ClickHouse, as CLICKHOUSE_URL would: a server
  // rebuilt from this config (a restart) opens the same event store.
  const clickhouseUrl = process.env.EVENT_STORE === 'clickhouse' ? clickHouseUrlFor(dataDir) : undefined;
  const config = testConfig(dataDir, { databaseUrl, smtpUrl: mail.url, clickhouseUrl, ...overrides });
  if (config.dataDir === dataDir) {
    await fillFromTemplate(dataDir, {
      accounts: config.databaseUrl === undefined,
      events: (process.env.EVENT_STORE ?? 'duckdb') === 'duckdb',
    });
  }
  const clock = createTestClock();
  const app = await buildApp(config, { clock, eventStore: chosenEventStore(), ...buildOptions });
  await app.ready();
  return {
    app,
    services: app.services,
    mail,
    clock,
    config,
    async close() {
      await app.close();
      await mail.close();
      if (clickhouseUrl) await releaseClickHouseUrl(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One server per test file and engine, started in beforeAll. Returns a handle whose fields are read
 * inside tests (after beforeAll ran).
 */
export function useTestApp(
  engine: Engine,
  overrides: Partial<Config> = {},
  buildOptions: TestBuildOptions = {},
): TestApp {
  let current: TestApp | undefined;
  const get = (): TestApp => {
    if (!current) throw new Error('test app not started yet');
    return current;
  };
  beforeAll(async () => {
    current = await startTestApp(engine, overrides, buildOptions);
  });
  afterAll(async () => {
    await current?.close();
  });
  return {
    get app() {
      return get().app;
    },
    get services() {
      return get().services;
    },
    get mail() {
      return get().mail;
    },
    get clock() {
      return get().clock;
    },
    get config() {
      return get().config;
    },
    close: () => get().close(),
  };
}

export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@example.com`;
