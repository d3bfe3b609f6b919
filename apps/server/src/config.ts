import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Requests allowed per client IP and route within the window, for each rate-limited auth route. */
export type RateLimitConfig = { max: number; windowMs: number };

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  /** `postgres://…` selects PostgreSQL; undefined keeps the accounts in `DATA_DIR/polyflow.sqlite`. */
  databaseUrl: string | undefined;
  /**
   * `http(s)://user:password@host:8123/database` selects the ClickHouse event store; undefined keeps the
   * events in `DATA_DIR/events.duckdb`.
   */
  clickhouseUrl?: string;
  /**
   * DuckDB's memory limit in MB (its buffer pool, which caches the blocks read, and the queries' working
   * memory; lifted while compaction or a derived-table rebuild runs, docs/decisions/028). Undefined: DuckDB's own,
   * 80 % of RAM (DUCKDB_MEMORY_LIMIT_MB=0).
   */
  duckDbMemoryLimitMb?: number;
  /** `smtp://user:pass@host:port`; undefined writes emails to the log and `DATA_DIR/outbox`. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Each SMTP wait (connect, greeting, an answer) gives up after this; the email is retried later. */
  smtpTimeoutMs?: number;
  /** First retry of an email that could not be sent; the delay doubles up to 15 minutes. */
  mailRetryMinMs?: number;
  /** How often the alert rules are evaluated (ALERT_EVALUATION_INTERVAL_SECONDS; default a minute). */
  alertEvaluationIntervalMs?: number;
  jwtSecret: string;
  /** Directory of the built console (index.html + assets). */
  consoleDir: string;
  /** Directory of the built documentation site, served at /docs/. */
  docsDir: string;
  /** Behind a reverse proxy, take the client IP from X-Forwarded-For (rate limits key on it). */
  trustProxy: boolean;
  authRateLimit: RateLimitConfig;
  logLevel: string;
  /** Events accepted per minute and API key before 429 (ingestion); generous, stops runaway clients. */
  ingestEventsPerMinute?: number;
  /** Bytes acknowledged in the ingestion log but not loaded yet, beyond which ingestion answers 503. */
  ingestBacklogMaxBytes?: number;
  /**
   * Longest wait of an acknowledged event before the loader makes it queryable, outside heavy streams
   * (INGEST_LOAD_DELAY_MS, default 3 s, ADR 160); the Playwright journeys set it lower.
   */
  ingestLoadDelayMs?: number;
  /**
   * Bounds of the live streams (`GET /api/v1/projects/:id/live`): queued messages per stream, heartbeat,
   * streams per project, per user and per user of one project. Defaults in modules/live/feed.ts; tests set
   * them small.
   */
  live?: {
    maxQueuedMessages?: number;
    heartbeatMs?: number;
    closeGraceMs?: number;
    maxConnectionsPerProject?: number;
    maxConnectionsPerUser?: number;
    maxConnectionsPerUserOfProject?: number;
  };
  /**
   * Raw exports running at once, per project (default 2), per user (default half the node's, at least a project's) and on this
   * node (default 8), and how long one waits for a client that reads nothing (default 60 s); tests set
   * them small.
   */
  exportLimits?: { perProject?: number; perNode?: number; perUser?: number; stallMs?: number };
  /** Health fails when the oldest acknowledged event not yet queryable is older than this. */
  healthMaxLoaderLagMs?: number;
  /** Health fails when the disk holding DATA_DIR has less free space than this. */
  healthMinFreeDiskBytes?: number;
  /**
   * Source-map storage across projects (docs/source-maps.md): the maps of all the projects one account owns
   * (SOURCEMAP_ACCOUNT_MAX_MB, default 5 GB) and the free space an upload must leave on the disk holding
   * DATA_DIR (SOURCEMAP_MIN_FREE_DISK_MB, default 1 GB).
   */
  sourcemapLimits?: { accountMaxBytes?: number; minFreeDiskBytes?: number };
  /** The SDK's IIFE build served at `/sdk.js`. */
  sdkScriptPath?: string;
  /** The operator's own country .mmdb file (GeoLite2-Country, DB-IP country); undefined: the bundled DB-IP lite. */
  geoipDb?: string;
  /** Enables `/metrics` on the main port for `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** Serves `/metrics` on this port too (on HOST). */
  metricsPort?: number;
  /**
   * WEBHOOK_ALLOW_PRIVATE_NETWORKS: alert channels may reach loopback, private and link-local addresses
   * (a receiver on the LAN; the tests' receivers on 127.0.0.1). Off: refused when saved and when delivered.
   */
  webhookAllowPrivateNetworks?: boolean;
  /**
   * First retry of an alert delivery that failed, doubling up to an hour (ALERT_RETRY_BASE_SECONDS, default
   * 30 s); tests set milliseconds directly.
   */
  alertRetryBaseMs?: number;
  /**
   * How often a node looks for alert deliveries due that it did not queue itself (another node's, a retry
   * due later than this) (ALERT_DELIVERY_POLL_MS, default 2 s); tests set it lower.
   */
  alertDeliveryPollMs?: number;
};

// src/config.ts and dist/main.js both sit one level below apps/server.
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const defaultConsoleDir = path.resolve(serverRoot, '../console/dist');
const defaultDocsDir = path.resolve(serverRoot, '../../docs/.vitepress/dist');
export const defaultSdkScriptPath = path.resolve(serverRoot, '../../packages/sdk/dist/polyflow.iife.js');

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/**
 * DuckDB's memory limit unless DUCKDB_MEMORY_LIMIT_MB says otherwise: it bounds the blocks a long read
 * (the raw export) leaves cached, which DuckDB's own limit (80 % of RAM) lets grow to the whole file.
 */
export const DEFAULT_DUCKDB_MEMORY_LIMIT_MB = 1024;

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  CLICKHOUSE_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DUCKDB_MEMORY_LIMIT_MB: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce
      .number()
      .int()
      .max(1_048_576)
      .refine((mb) => mb === 0 || mb >= 128, "must be 0 (DuckDB's own, 80 % of RAM) or at least 128")
      .default(DEFAULT_DUCKDB_MEMORY_LIMIT_MB),
  ),
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: optionalString,
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  MAIL_RETRY_MIN_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  ALERT_EVALUATION_INTERVAL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  CONSOLE_DIR: optionalString,
  DOCS_DIR: optionalString,
  TRUST_PROXY: booleanFlag,
  AUTH_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
  AUTH_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  INGEST_EVENTS_PER_MINUTE: z.coerce.number().int().min(1).default(6_000_000),
  INGEST_BACKLOG_MAX_MB: z.coerce.number().positive().default(256),
  INGEST_LOAD_DELAY_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  SDK_SCRIPT_PATH: optionalString,
  GEOIP_DB: optionalString,
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  METRICS_PORT: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().int().min(1).max(65535).optional(),
  ),
  HEALTH_MAX_LOADER_LAG_SECONDS: z.coerce.number().positive().default(60),
  HEALTH_MIN_FREE_DISK_MB: z.coerce.number().nonnegative().default(256),
  SOURCEMAP_ACCOUNT_MAX_MB: z.coerce.number().positive().default(5120),
  SOURCEMAP_MIN_FREE_DISK_MB: z.coerce.number().nonnegative().default(1024),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: booleanFlag,
  ALERT_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  ALERT_DELIVERY_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** Every variable the server reads (README's configuration table and .env.example list each one; a test checks). */
export const ENV_VARIABLES = Object.keys(EnvSchema.shape);

export class ConfigError extends Error {}

/**
 * Reads the environment once (the only place that does) and fails fast with every problem listed.
 * Generates the JWT secret into DATA_DIR on first start when JWT_SECRET is not set.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const vars = parsed.data;
  const dataDir = path.resolve(vars.DATA_DIR);
  const publicUrl = (vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`).replace(/\/+$/, '');
  return {
    port: vars.PORT,
    host: vars.HOST,
    dataDir,
    publicUrl,
    databaseUrl: vars.DATABASE_URL,
    clickhouseUrl: vars.CLICKHOUSE_URL,
    duckDbMemoryLimitMb: vars.DUCKDB_MEMORY_LIMIT_MB === 0 ? undefined : vars.DUCKDB_MEMORY_LIMIT_MB,
    smtpUrl: vars.SMTP_URL,
    mailFrom: vars.MAIL_FROM ?? `Polyflow <no-reply@${new URL(publicUrl).hostname}>`,
    smtpTimeoutMs: vars.SMTP_TIMEOUT_MS,
    mailRetryMinMs: vars.MAIL_RETRY_MIN_SECONDS * 1000,
    alertEvaluationIntervalMs: vars.ALERT_EVALUATION_INTERVAL_SECONDS * 1000,
    jwtSecret: vars.JWT_SECRET ?? readOrCreateSecret(dataDir, 'jwt-secret'),
    consoleDir: vars.CONSOLE_DIR ? path.resolve(vars.CONSOLE_DIR) : defaultConsoleDir,
    docsDir: vars.DOCS_DIR ? path.resolve(vars.DOCS_DIR) : defaultDocsDir,
    trustProxy: vars.TRUST_PROXY,
    authRateLimit: { max: vars.AUTH_RATE_LIMIT_MAX, windowMs: vars.AUTH_RATE_LIMIT_WINDOW_MS },
    logLevel: vars.LOG_LEVEL,
    ingestEventsPerMinute: vars.INGEST_EVENTS_PER_MINUTE,
    ingestBacklogMaxBytes: Math.round(vars.INGEST_BACKLOG_MAX_MB * 1024 * 1024),
    ingestLoadDelayMs: vars.INGEST_LOAD_DELAY_MS,
    healthMaxLoaderLagMs: vars.HEALTH_MAX_LOADER_LAG_SECONDS * 1000,
    healthMinFreeDiskBytes: Math.round(vars.HEALTH_MIN_FREE_DISK_MB * 1024 * 1024),
    sourcemapLimits: {
      accountMaxBytes: Math.round(vars.SOURCEMAP_ACCOUNT_MAX_MB * 1024 * 1024),
      minFreeDiskBytes: Math.round(vars.SOURCEMAP_MIN_FREE_DISK_MB * 1024 * 1024),
    },
    sdkScriptPath: vars.SDK_SCRIPT_PATH ? path.resolve(vars.SDK_SCRIPT_PATH) : defaultSdkScriptPath,
    geoipDb: vars.GEOIP_DB ? existingFile('GEOIP_DB', vars.GEOIP_DB) : undefined,
    metricsToken: vars.METRICS_TOKEN,
    metricsPort: vars.METRICS_PORT,
    webhookAllowPrivateNetworks: vars.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    alertRetryBaseMs: vars.ALERT_RETRY_BASE_SECONDS * 1000,
    alertDeliveryPollMs: vars.ALERT_DELIVERY_POLL_MS,
  };
}

function existingFile(variable: string, file: string): string {
  const resolved = path.resolve(file);
  if (!existsSync(resolved) || !statSync(resolved).isFile()) {
    throw new ConfigError(`Invalid configuration:\n  ${variable}: no file at ${resolved}`);
  }
  return resolved;
}

/** A secret generated on first start and kept in DATA_DIR, readable by the owner only. */
export function readOrCreateSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length < 32) throw new ConfigError(`${file} holds a secret shorter than 32 characters`);
    return secret;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  // 'wx' so two processes starting together cannot both write different secrets.
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
  return secret;
}
