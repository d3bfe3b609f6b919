import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Config, defaultSdkScriptPath } from './config.ts';
import { type AccountDb, createDatabase, type DbEngine } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { installErrorHandler, rateLimited } from './errors.ts';
import { graphqlPlugin } from './graphql/plugin.ts';
import { registerConsole } from './http/console.ts';
import { installJsonParser } from './http/json-parser.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { installXsrfProtection } from './http/xsrf.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { loggerOptions } from './logger.ts';
import { createAcquisition } from './modules/acquisition/module.ts';
import { createAnalytics } from './modules/analytics/module.ts';
import { createPasswordHasher } from './modules/auth/passwords.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { type AuthService, createAuthService } from './modules/auth/service.ts';
import { createSessionService, type SessionService } from './modules/auth/sessions.ts';
import { createAuthStore } from './modules/auth/store.ts';
import { startEventCompaction } from './modules/event-store/duckdb/compaction-scheduler.ts';
import { createDuckDbEventStore, type DuckDbEventStore } from './modules/event-store/duckdb/duckdb-event-store.ts';
import { legacyIngestionGraphql } from './modules/ingestion/legacy/resolvers.ts';
import { eventRoutes } from './modules/ingestion/routes.ts';
import { sdkScriptRoute } from './modules/ingestion/sdk-script.ts';
import { createEventService, type EventService } from './modules/ingestion/service.ts';
import { createIncidents } from './modules/incidents/module.ts';
import { createMailService, type MailService } from './modules/mail/service.ts';
import { projectRoutes } from './modules/projects/routes.ts';
import { createProjectService, type ProjectService } from './modules/projects/service.ts';
import { createProjectStore } from './modules/projects/store.ts';

/** Everything other modules may use; passed to each module's register function. */
export type Services = {
  config: Config;
  db: AccountDb;
  dbEngine: DbEngine;
  clock: Clock;
  mail: MailService;
  sessions: SessionService;
  auth: AuthService;
  projects: ProjectService;
  events: EventService;
  /** The event store (DuckDB file in DATA_DIR); analytics queries open connections on it. */
  eventStore: DuckDbEventStore;
};

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export type BuildOptions = {
  /** Tests move time to check token and session expiry. */
  clock?: Clock;
  /** Run migrations while building (default true). */
  migrate?: boolean;
  /** Where log lines go (default stdout); tests read them to prove secrets stay out. */
  logStream?: { write(line: string): void };
};

/** Paths called by dapps with an API key rather than by the console: no XSRF cookie there. */
const XSRF_EXEMPT_PATHS = new Set(['/api/v1/events']);

/** Composes the whole server: stores, services, HTTP policies and every module's routes. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    genReqId: () => crypto.randomUUID(),
  });
  const isHttps = config.publicUrl.startsWith('https:');

  const { db, engine } = await createDatabase(config);
  app.addHook('onClose', async () => {
    await db.destroy();
  });
  if (options.migrate !== false) {
    try {
      await migrateToLatest(db);
    } catch (error) {
      await app.close();
      throw error;
    }
  }

  const mail = createMailService({ ...config, logger: app.log });
  app.addHook('onClose', async () => mail.close());

  const authStore = createAuthStore(db);
  const sessions = createSessionService({ secret: config.jwtSecret, clock, store: authStore });
  const auth = createAuthService({
    store: authStore,
    sessions,
    passwords: createPasswordHasher(),
    mail,
    clock,
    publicUrl: config.publicUrl,
  });
  const projects = createProjectService({ store: createProjectStore(db), clock });
  const eventStore = await createDuckDbEventStore({ file: path.join(config.dataDir, 'events.duckdb') });
  const events = createEventService({
    store: eventStore,
    projects,
    clock,
    rateLimit: { eventsPerMinute: config.ingestEventsPerMinute ?? 6_000_000 },
    // Batches are acknowledged once in this log and loaded into DuckDB in the background (ADR 003).
    log: {
      dir: path.join(config.dataDir, 'ingest-log'),
      maxBacklogBytes: config.ingestBacklogMaxBytes,
      onLoadError: (error) => app.log.error({ err: error }, 'loading the ingestion log failed; retrying'),
    },
  });
  // Answers every waiting ingestion request, then checkpoints and closes the DuckDB file.
  app.addHook('onClose', async () => events.close());
  // After listen, not on ready: tests that only inject never pay the geo-IP database's load.
  app.addHook('onListen', async () => events.preload());
  // Keeps `events` clustered by (project_id, ts) in the background (ADR 004); on listen, like the preload.
  let compaction: ReturnType<typeof startEventCompaction> | undefined;
  app.addHook('onListen', async () => {
    compaction = startEventCompaction({ store: eventStore, logger: app.log });
  });
  // Before the events hook above closes the store, which interrupts a compaction under way.
  app.addHook('onClose', async () => compaction?.stop());
  // Registered after the event store's hook so that it runs before it (onClose hooks run last-in first-out).
  const analytics = createAnalytics({ projects, eventStore, clock });
  app.addHook('onClose', async () => analytics.close());
  const acquisition = createAcquisition({ projects, eventStore, clock });
  app.addHook('onClose', async () => acquisition.close());
  const incidents = createIncidents({ projects, eventStore, clock });
  app.addHook('onClose', async () => incidents.close());
  const services: Services = {
    config,
    db,
    dbEngine: engine,
    clock,
    mail,
    sessions,
    auth,
    projects,
    events,
    eventStore,
  };
  app.decorate('services', services);
  app.decorate('sessions', sessions);

  // HTTP policies, for every route of every module.
  installErrorHandler(app);
  installJsonParser(app);
  installSecurityHeaders(app, { isHttps });
  await app.register(fastifyCookie);
  installXsrfProtection(app, { isHttps, exemptPaths: XSRF_EXEMPT_PATHS });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: () => rateLimited(),
  });

  // Modules. Each gets the services it needs; add new modules here (ingestion, GraphQL: pass `services`).
  // Route-level `config.rateLimit` works in any module; unknown paths fall through to the console below.
  await app.register(
    async (api) => {
      api.get('/health', async () => ({ status: 'ok' }));
      await api.register(authRoutes, { auth, rateLimit: config.authRateLimit });
      await api.register(projectRoutes, { projects });
    },
    { prefix: '/api/v1' },
  );

  // Ingestion (`POST /api/v1/events`, integration status), `/sdk.js` and GraphQL, outside /api/v1's prefix.
  await app.register(eventRoutes, { events });
  await app.register(sdkScriptRoute, { sdkScriptPath: config.sdkScriptPath ?? defaultSdkScriptPath });
  await app.register(graphqlPlugin, {
    modules: [legacyIngestionGraphql(events), analytics.graphql, acquisition.graphql, incidents.graphql],
  });

  await registerConsole(app, { consoleDir: config.consoleDir });
  return app;
}
