import os from 'node:os';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { serveAdminSocket } from './admin/server-socket.ts';
import { type Config, defaultSdkScriptPath } from './config.ts';
import { type AccountDb, createDatabase, type DbEngine } from './db/database.ts';
import { createLeadership, type Leadership } from './db/leadership.ts';
import { migrateToLatest } from './db/migrations.ts';
import { frameworkErrorHandler, installErrorHandler, rateLimited } from './errors.ts';
import { createGraphqlEndpoint } from './graphql/plugin.ts';
import { answerClientError } from './http/client-errors.ts';
import { registerConsole } from './http/console.ts';
import { installContentEncodingPolicy } from './http/content-encoding.ts';
import { registerDocsSite } from './http/docs-site.ts';
import { installJsonParser } from './http/json-parser.ts';
import { registerMetrics } from './http/metrics.ts';
import { installOpenApi } from './http/openapi.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { installXsrfProtection } from './http/xsrf.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { sha256 } from './lib/ids.ts';
import { loggerOptions } from './logger.ts';
import { createMetrics } from './metrics/metrics.ts';
import { createAcquisition } from './modules/acquisition/module.ts';
import { alertChannelRoutes } from './modules/alert-channels/routes.ts';
import { type AlertChannelService, createAlertChannelService } from './modules/alert-channels/service.ts';
import { createAlertChannelStore } from './modules/alert-channels/store.ts';
import { startAlertEvaluationJob } from './modules/alert-rules/job.ts';
import type { ChannelDirectory, Notify } from './modules/alert-rules/notice.ts';
import { alertRuleRoutes } from './modules/alert-rules/routes.ts';
import { type AlertRuleService, createAlertRuleService } from './modules/alert-rules/service.ts';
import { createAlertRuleStore } from './modules/alert-rules/store.ts';
import { createAnalytics } from './modules/analytics/module.ts';
import { annotationsGraphqlModule } from './modules/annotations/resolvers.ts';
import { annotationRoutes } from './modules/annotations/routes.ts';
import { createAnnotationService } from './modules/annotations/service.ts';
import { createAnnotationStore } from './modules/annotations/store.ts';
import { auditLogRoutes } from './modules/audit-log/routes.ts';
import { type AuditLogService, createAuditLogService } from './modules/audit-log/service.ts';
import { createAuditLogStore } from './modules/audit-log/store.ts';
import { createPasswordHasher } from './modules/auth/passwords.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { type AuthService, createAuthService } from './modules/auth/service.ts';
import { createSessionService, type SessionService } from './modules/auth/sessions.ts';
import { createAuthStore } from './modules/auth/store.ts';
import { createCustomEvents } from './modules/custom-events/module.ts';
import { eventExportRoutes } from './modules/event-export/routes.ts';
import { createEventExportService } from './modules/event-export/service.ts';
import { clickHouseEventStore } from './modules/event-store/clickhouse/clickhouse-event-store.ts';
import { duckDbEventStore } from './modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventStore, EventStoreFactory } from './modules/event-store/event-store.ts';
import { createFunnels } from './modules/funnels/module.ts';
import { funnelRoutes } from './modules/funnels/routes.ts';
import { createGoals } from './modules/goals/module.ts';
import { goalRoutes } from './modules/goals/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { createHealthService } from './modules/health/service.ts';
import { createIncidents } from './modules/incidents/module.ts';
import { createEventService, type EventService } from './modules/ingest-log/service.ts';
import { createAdmission } from './modules/ingestion/admission.ts';
import { createGeoLookup } from './modules/ingestion/enrich.ts';
import { createIngest, type IngestPart } from './modules/ingestion/ingest.ts';
import { createIntegrationStatus } from './modules/ingestion/integration-status.ts';
import { legacyIngestionGraphql } from './modules/ingestion/legacy/resolvers.ts';
import { eventRoutes } from './modules/ingestion/routes.ts';
import { sdkScriptRoute } from './modules/ingestion/sdk-script.ts';
import type { LiveFeed } from './modules/live/feed.ts';
import { liveRoutes } from './modules/live/routes.ts';
import { createLive } from './modules/live/service.ts';
import { createOutboxStore } from './modules/mail/outbox-store.ts';
import { createMailService, type MailService } from './modules/mail/service.ts';
import { createFileTransport, createSmtpTransport } from './modules/mail/transport.ts';
import { memberRoutes } from './modules/members/routes.ts';
import { createMemberService, type MemberService } from './modules/members/service.ts';
import { createMemberStore } from './modules/members/store.ts';
import { createProjectAccess } from './modules/project-access/service.ts';
import { createProjectStore } from './modules/project-access/store.ts';
import { startRetentionJob } from './modules/projects/retention-job.ts';
import { projectRoutes } from './modules/projects/routes.ts';
import { createProjectService, type ProjectService } from './modules/projects/service.ts';
import { readTokenRoutes } from './modules/read-tokens/routes.ts';
import { createReadTokenService, type ReadTokenService } from './modules/read-tokens/service.ts';
import { createReadTokenStore } from './modules/read-tokens/store.ts';
import { startReportJob } from './modules/reports/job.ts';
import { reportRoutes } from './modules/reports/routes.ts';
import { createReportService, type ReportService } from './modules/reports/service.ts';
import { createReportStore } from './modules/reports/store.ts';
import { createSourcemaps } from './modules/sourcemaps/module.ts';
import { SOURCEMAPS_UPLOAD_PATH, sourcemapRoutes } from './modules/sourcemaps/routes.ts';
import { createWallets } from './modules/wallets/module.ts';
import { chainIdGraphql } from './reading/chain-id.ts';
import { dateTimeGraphql } from './reading/date-time.ts';

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
  /** The ingestion log and its loader (flush, backlog, the deletes that see events not loaded yet). */
  events: EventService;
  /** A batch's checks and enrichment (`geoIpLoaded`: whether the geo-IP database is in memory yet). */
  ingest: IngestPart;
  /** The live streams (modules/live): `closeStreamsOf`, `connections`. */
  live: LiveFeed;
  readTokens: ReadTokenService;
  members: MemberService;
  auditLog: AuditLogService;
  /** Alert channels and the durable delivery of notices (`enqueueNotice`: what alert rules call). */
  alertChannels: AlertChannelService;
  /** Email reports: members' choices, and sending them (`sendDue`, `sendNow`). */
  reports: ReportService;
  /** Alert rules and their evaluation (`evaluate`: one evaluation, as the background job runs it). */
  alertRules: AlertRuleService;
  /** The event store (the port; DuckDB file in DATA_DIR by default). */
  eventStore: EventStore;
  /**
   * Background work that must run on one node at a time (`runWhileLeading`): a PostgreSQL advisory lock
   * with DATABASE_URL, this node alone on SQLite (ADR 019). Jobs start once the server listens.
   */
  leadership: Leadership;
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
  /** The event store's adapter (default DuckDB in DATA_DIR); the tests choose it with EVENT_STORE. */
  eventStore?: EventStoreFactory;
  /** Called for every route Fastify registers (the OpenAPI test enumerates them with it). */
  onRoute?: (route: RouteOptions) => void;
  /** The alert channels as the rules see them (tests: a recording sink and known channel ids). */
  alertChannels?: { notify: Notify; directory: ChannelDirectory };
};

/** Paths called by dapps with an API key rather than by the console: no XSRF cookie there. */
const XSRF_EXEMPT_PATHS = new Set([
  '/api/v1/events',
  // Source-map uploads from CI (a write token, or a session's bearer token): authenticated only by the
  // Authorization header, which another site cannot make a browser send.
  SOURCEMAPS_UPLOAD_PATH,
]);

/** Composes the whole server: stores, services, HTTP policies and every module's routes. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    genReqId: () => crypto.randomUUID(),
    // Errors of the router itself (a bad URL, an over-long parameter) get the same {errorCode, message}.
    frameworkErrors: frameworkErrorHandler,
    // And what Node's HTTP parser refuses before routing (over-long headers, a malformed request).
    clientErrorHandler: answerClientError,
  });
  const { onRoute } = options;
  if (onRoute) app.addHook('onRoute', (route) => onRoute(route));
  const isHttps = config.publicUrl.startsWith('https:');
  const geo = createGeoLookup(config.geoipDb);
  // The operator's own GEOIP_DB is checked now, so that a wrong file stops the start with its name,
  // before any store is opened; it is read into memory on the first event that needs a country.
  if (config.geoipDb) geo.check();

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

  const mail = createMailService({
    store: createOutboxStore(db),
    transport: config.smtpUrl
      ? createSmtpTransport({
          smtpUrl: config.smtpUrl,
          mailFrom: config.mailFrom,
          timeoutMs: config.smtpTimeoutMs ?? 10_000,
          logger: app.log,
        })
      : createFileTransport({ dataDir: config.dataDir, mailFrom: config.mailFrom, logger: app.log }),
    secret: config.jwtSecret,
    clock,
    logger: app.log,
    minRetryDelayMs: config.mailRetryMinMs,
  });
  // Before the accounts store closes (hooks run last-in first-out): the outbox gives back what it holds.
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
  // Parts are built in the order of what they are built with (ADR 075; apps/server/test/architecture.test.ts
  // checks it): the project access first (the accounts store alone), the projects service last of these.
  const projectStore = createProjectStore(db);
  const projectAccess = createProjectAccess({ store: projectStore });
  const auditLog = createAuditLogService({ store: createAuditLogStore(db), projects: projectAccess, clock });
  // CLICKHOUSE_URL selects ClickHouse; the embedded DuckDB file is the default (tests pass their own).
  const chosenEventStore =
    options.eventStore ??
    (config.clickhouseUrl
      ? clickHouseEventStore(config.clickhouseUrl)
      : duckDbEventStore({ memoryLimitMb: config.duckDbMemoryLimitMb }));
  const eventStore = await chosenEventStore({ dataDir: config.dataDir });
  const metrics = createMetrics();
  // Source maps (ADR 066): uploads and write tokens; the symbolicator maps stacks for ingestion's
  // fingerprint and the incident detail, from an index of the releases with maps kept in memory.
  const sourcemaps = createSourcemaps({
    db,
    dataDir: config.dataDir,
    projects: projectAccess,
    clock,
    audit: auditLog,
    limits: config.sourcemapLimits,
  });
  if (options.migrate !== false) await sourcemaps.symbolicator.start();
  app.addHook('onClose', async () => sourcemaps.symbolicator.stop());
  // The ingestion log and its loader: batches are acknowledged once in this log and loaded into the
  // event store in the background (ADR 003).
  const events = createEventService({
    metrics,
    store: eventStore,
    log: {
      dir: path.join(config.dataDir, 'ingest-log'),
      maxBacklogBytes: config.ingestBacklogMaxBytes,
      maxLoadDelayMs: config.ingestLoadDelayMs,
      onLoadError: (error) => app.log.error({ err: error }, 'loading the ingestion log failed; retrying'),
      onQuarantined: ({ segment, file, error, total }) =>
        app.log.error(
          { err: error, segment, file, quarantined: total },
          `a record of the ingestion log could not be loaded into the event store; it was kept in ${file} and everything else was loaded. Inspect it with: tail -n 1 ${file} | head -c 2000`,
        ),
    },
  });
  const projects = createProjectService({
    store: projectStore,
    access: projectAccess,
    clock,
    audit: auditLog,
    // A deleted project's events go, those still in the ingestion log too.
    events: {
      deleteProjectEvents: (projectId) => events.deleteProjectEvents(projectId),
      deleteWalletEvents: (projectId, wallet) => events.deleteWalletEvents(projectId, wallet),
      deleteUserEvents: (projectId, userId) => events.deleteUserEvents(projectId, userId),
      deleteEventsBefore: (projectId, before) => eventStore.deleteEventsBefore(projectId, before),
    },
    deleteProjectFiles: (projectId) => sourcemaps.removeProjectFiles(projectId),
  });
  // Ingestion's other parts: admission (key, Origin, rate, backlog), the batch's checks and enrichment,
  // the integration card.
  const admission = createAdmission({
    projects: projectAccess,
    log: events,
    rateLimit: { eventsPerMinute: config.ingestEventsPerMinute ?? 6_000_000 },
  });
  const ingest = createIngest({
    log: events,
    store: eventStore,
    topFrames: sourcemaps.symbolicator,
    clock,
    geo,
  });
  const integration = createIntegrationStatus({
    projects: projectAccess,
    log: events,
    store: eventStore,
    clock,
  });
  // The live streams (modules/live): fed by the log's commits, closed by a project's deletion and by the
  // end of their session on this node.
  const liveFeed = createLive({ options: config.live, log: events, projects: projectAccess, sessions });
  const leadership = createLeadership({ databaseUrl: config.databaseUrl, logger: app.log });
  // After listen, not on ready: the store's upkeep (DuckDB: clustering by project and time, ADR 004)
  // starts then, never inside a request, and on one node at a time when several share the stores.
  let adminSocket: Promise<{ close(): Promise<void> } | undefined> | undefined;
  app.addHook('onListen', async () => {
    leadership.runWhileLeading('event-store-maintenance', () => eventStore.startMaintenance(app.log));
    // The hourly retention pass (projects/retention-job.ts), on one node too.
    leadership.runWhileLeading('retention', () =>
      startRetentionJob({
        applyRetention: async () => {
          // The audit log keeps a year (docs/teams.md); the same hourly pass trims it.
          const purged = await auditLog.purgeExpired();
          if (purged > 0) app.log.info({ purged }, 'audit log entries older than a year deleted');
          return projects.applyRetention();
        },
        logger: app.log,
      }),
    );
    // Weekly and monthly email reports (modules/reports), on one node too.
    leadership.runWhileLeading('reports', () =>
      startReportJob({ sendDue: () => reports.sendDue(), logger: app.log }),
    );
    // Alert rules, every ALERT_EVALUATION_INTERVAL_SECONDS, on one node too (docs/alerts.md#evaluation).
    leadership.runWhileLeading('alert-evaluation', () =>
      startAlertEvaluationJob({
        evaluate: () => alertRules.evaluate(),
        intervalMs: alertEvaluationIntervalMs,
        logger: app.log,
      }),
    );
    // The admin CLI's hot backup of the event store (ADR 015); injected tests never listen. Not awaited:
    // the other listeners (METRICS_PORT) start without waiting for it; a socket that cannot be served
    // leaves backups to a stopped server, and says so.
    adminSocket = serveAdminSocket({
      dataDir: config.dataDir,
      logDir: path.join(config.dataDir, 'ingest-log'),
      copyEventStore: eventStore.copyInto?.bind(eventStore),
      sendReport: async (projectId, kind) => {
        const outcome = await reports.sendNow(projectId, kind);
        if (!outcome) return { ok: false, message: `No project ${projectId} (list-projects shows them).` };
        const { title, sent, alreadySent, subscribers } = outcome;
        if (subscribers === 0) {
          return {
            ok: true,
            message: `No member of the project has turned on ${kind} reports: nothing sent (docs/reports.md says how to turn them on).`,
          };
        }
        return {
          ok: true,
          message: `The ${kind} report of ${title}: sent to ${sent} member(s) now; ${alreadySent} already had it.`,
        };
      },
      logger: app.log,
    }).catch((error: unknown) => {
      app.log.warn(
        { err: error },
        'the admin socket could not be served: `npm run admin -- backup` needs the server stopped',
      );
      return undefined;
    });
  });
  // Stops the background jobs (closing the store interrupts a compaction under way), answers every
  // waiting ingestion request and loads the whole log, then closes the store.
  app.addHook('onClose', async () => {
    await (await adminSocket)?.close();
    await leadership.close();
    admission.close();
    await events.close();
    await eventStore.close();
  });
  const readTokens = createReadTokenService({
    store: createReadTokenStore(db),
    projects,
    clock,
    audit: auditLog,
  });
  const annotations = createAnnotationService({
    store: createAnnotationStore(db),
    projects,
    clock,
    audit: auditLog,
  });
  const members = createMemberService({
    store: createMemberStore(db),
    projects,
    mail,
    audit: auditLog,
    clock,
    publicUrl: config.publicUrl,
    // A removed member's live streams on this node end at once (ACCESS_ENDED); on other nodes at their
    // next heartbeat, which checks the membership again.
    onMemberRemoved: (userId, projectId) => {
      liveFeed.closeStreamsOf(userId, projectId);
      // Their report choices go too (sending also asks for current members only).
      void reports
        .forgetMember(userId, projectId)
        .catch((error: unknown) => app.log.error({ err: error }, 'report choices of a removed member kept'));
    },
  });
  const alertChannels = createAlertChannelService({
    store: createAlertChannelStore(db, engine),
    projects,
    audit: auditLog,
    mail,
    clock,
    logger: app.log,
    publicUrl: config.publicUrl,
    allowPrivateNetworks: config.webhookAllowPrivateNetworks ?? false,
    retryBaseMs: config.alertRetryBaseMs,
    pollIntervalMs: config.alertDeliveryPollMs,
    // Stable across this node's restarts, distinct between nodes (each has its own DATA_DIR).
    onAttempt: (outcome) => metrics.alertAttempt(outcome),
    timeZoneOf: (projectId) => projects.timeZoneOf(projectId),
    nodeId: sha256(`${os.hostname()}\0${config.dataDir}`).slice(0, 32),
  });
  // Before the accounts store closes (hooks run last-in first-out): deliveries under way are given back.
  app.addHook('onClose', async () => alertChannels.close());
  const analytics = createAnalytics({ projects, eventStore, clock });
  const exports = createEventExportService(
    {
      projects,
      store: eventStore,
      history: (userId, projectId, input) =>
        analytics.service.transactionHistoryPages(userId, projectId, input),
    },
    config.exportLimits,
  );
  const customEvents = createCustomEvents({ projects, eventStore, clock });
  const funnels = createFunnels({ db, projects, eventStore, audit: auditLog, clock });
  const goals = createGoals({ db, projects, audit: auditLog, eventStore, clock });
  const acquisition = createAcquisition({ projects, eventStore, clock });
  const incidents = createIncidents({
    projects,
    eventStore,
    db,
    clock,
    audit: auditLog,
    mapFrames: (projectId, release, stack) => sourcemaps.symbolicator.mapStack(projectId, release, stack),
  });
  const wallets = createWallets({ projects, eventStore, clock });
  // Reports read the console's own questions through the dashboard services (figures equal the screens').
  const reports = createReportService({
    store: createReportStore(db),
    projects,
    mail,
    sources: {
      overview: (userId, projectId, input) => analytics.service.overview(userId, projectId, input),
      funnel: (userId, input) => acquisition.service.funnel(userId, input),
      attribution: (userId, input) => acquisition.service.attribution(userId, input),
      incidents: (userId, input) => incidents.service.list(userId, input),
    },
    clock,
    secret: config.jwtSecret,
    publicUrl: config.publicUrl,
    logger: app.log,
    // Periods are the project's local weeks and months (docs/timezone.md).
    timeZoneOf: (projectId) => projects.timeZoneOf(projectId),
  });
  const alertEvaluationIntervalMs = config.alertEvaluationIntervalMs ?? 60_000;
  // The rules hand their notices to the channels' durable queue, and check a rule's channels with them.
  const ruleChannels: { notify: Notify; directory: ChannelDirectory } = options.alertChannels ?? {
    notify: (notice, channelIds) => alertChannels.enqueueNotice(notice, channelIds),
    directory: { channelIdsOf: (projectId, channelIds) => alertChannels.channelIdsOf(projectId, channelIds) },
  };
  const alertRules = createAlertRuleService({
    store: createAlertRuleStore(db),
    projects,
    eventStore,
    incidents: {
      resolvedIncidents: (projectIds) => incidents.service.resolvedIncidents(projectIds),
      severityOf: (projectId, incidentId, nowMs) =>
        incidents.service.lifetimeSeverity(projectId, incidentId, nowMs),
    },
    channels: ruleChannels.directory,
    notify: ruleChannels.notify,
    clock,
    publicUrl: config.publicUrl,
    evaluationIntervalMs: alertEvaluationIntervalMs,
  });
  const health = createHealthService({
    db,
    eventStore,
    loader: () => events.loaderState(),
    mailWaiting: () => mail.waiting(),
    alertDeliveriesWaiting: () => alertChannels.pending(),
    dataDir: config.dataDir,
    clock,
    maxLoaderLagMs: config.healthMaxLoaderLagMs ?? 60_000,
    minFreeDiskBytes: config.healthMinFreeDiskBytes ?? 256 * 1024 * 1024,
  });
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
    ingest,
    live: liveFeed,
    readTokens,
    members,
    auditLog,
    alertChannels,
    reports,
    alertRules,
    eventStore,
    leadership,
  };
  app.decorate('services', services);
  app.decorate('sessions', sessions);
  app.decorate('readTokens', readTokens);

  // HTTP policies, for every route of every module.
  installErrorHandler(app);
  installJsonParser(app);
  installSecurityHeaders(app, { isHttps });
  installContentEncodingPolicy(app);
  await app.register(fastifyCookie);
  installXsrfProtection(app, { isHttps, exemptPaths: XSRF_EXEMPT_PATHS });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: () => rateLimited(),
  });

  // Before the modules: it collects every route as it is registered (GET /api/v1/openapi.json).
  await installOpenApi(app);

  // Modules. Each gets the services it needs; add new modules here (ingestion, GraphQL: pass `services`).
  // Route-level `config.rateLimit` works in any module; unknown paths fall through to the console below.
  await app.register(
    async (api) => {
      await api.register(healthRoutes, { health, detailsToken: config.metricsToken });
      await api.register(authRoutes, { auth, rateLimit: config.authRateLimit });
      await api.register(projectRoutes, { projects });
      await api.register(readTokenRoutes, { readTokens });
      await api.register(sourcemapRoutes, { sourcemaps: sourcemaps.service });
      await api.register(annotationRoutes, { annotations });
      await api.register(funnelRoutes, { funnels: funnels.service });
      await api.register(goalRoutes, { goals: goals.service });
      await api.register(memberRoutes, { members });
      await api.register(auditLogRoutes, { auditLog });
      await api.register(eventExportRoutes, { exports });
      await api.register(alertChannelRoutes, { alertChannels });
      await api.register(reportRoutes, { reports });
      await api.register(alertRuleRoutes, { alertRules });
    },
    { prefix: '/api/v1' },
  );

  // Ingestion (`POST /api/v1/events`, integration status), `/sdk.js` and GraphQL, outside /api/v1's prefix.
  metrics.watchIngestLog(events);
  await app.register(eventRoutes, { admission, ingest, integration, onRefused: metrics.refused });
  await app.register(liveRoutes, { feed: liveFeed, projects: projectAccess, clock });
  await app.register(sdkScriptRoute, { sdkScriptPath: config.sdkScriptPath ?? defaultSdkScriptPath });
  const graphql = createGraphqlEndpoint({
    modules: [
      dateTimeGraphql,
      chainIdGraphql,
      legacyIngestionGraphql({ admission, ingest, log: events }),
      analytics.graphql,
      acquisition.graphql,
      incidents.graphql,
      wallets.graphql,
      customEvents.graphql,
      funnels.graphql,
      annotationsGraphqlModule({ annotations }),
      goals.graphql,
    ],
    onQuery: metrics.queryTook,
  });
  await app.register(graphql.routes);
  await registerMetrics(app, {
    metrics,
    token: config.metricsToken,
    port: config.metricsPort,
    host: config.host,
  });

  await registerDocsSite(app, { docsDir: config.docsDir });
  // The console's page is followed by its GraphQL queries: the endpoint is made meanwhile.
  await registerConsole(app, {
    consoleDir: config.consoleDir,
    docsDir: config.docsDir,
    onPage: graphql.prepare,
  });
  return app;
}
