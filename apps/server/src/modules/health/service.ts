import { statfs } from 'node:fs/promises';
import { sql } from 'kysely';
import type { AccountDb } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';

export type CheckStatus = 'ok' | 'failing';
export type HealthReport = {
  status: CheckStatus;
  checks: {
    accountsStore: { status: CheckStatus; latencyMs: number; error?: string };
    eventStore: { status: CheckStatus; latencyMs: number; error?: string };
    loader: {
      status: CheckStatus;
      /** Age of the oldest acknowledged event not yet queryable, 0 when none waits. */
      lagSeconds: number;
      maxLagSeconds: number;
      pendingBytes: number;
      /** Records set aside by the loader (quarantine.ndjson): reported, not failing. */
      quarantinedRecords: number;
    };
    disk: { status: CheckStatus; path: string; freeBytes: number; minFreeBytes: number; error?: string };
    mail: { waiting: number | null };
    /** Alert notices not delivered yet, on every node (docs/alerts.md "Delivery"): reported, not failing. */
    alertDeliveries: { waiting: number | null };
  };
};

export type HealthDeps = {
  db: AccountDb;
  eventStore: { ping(): Promise<void> };
  loader: () => { pendingBytes: number; oldestPendingAt: number | undefined; quarantined: number };
  mailWaiting: () => Promise<number>;
  alertDeliveriesWaiting: () => Promise<number>;
  dataDir: string;
  clock: Clock;
  maxLoaderLagMs: number;
  minFreeDiskBytes: number;
};

/** A check that does not answer within this long counts as failing: a hung store must not hang health. */
const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function timed(check: () => Promise<unknown>) {
  const started = performance.now();
  try {
    await withTimeout(check());
    return { status: 'ok' as const, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status: 'failing' as const,
      latencyMs: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message.slice(0, 300) : String(error),
    };
  }
}

/**
 * What `GET /api/v1/health` reports: each store answers a query, the ingestion loader keeps up (the
 * oldest acknowledged event not yet queryable is younger than `maxLoaderLagMs`), and the disk holding
 * DATA_DIR has `minFreeDiskBytes` free. Failing when any of these fails, so a load balancer or a
 * monitor can act.
 */
export function createHealthService(deps: HealthDeps) {
  async function disk(): Promise<HealthReport['checks']['disk']> {
    const base = { path: deps.dataDir, minFreeBytes: deps.minFreeDiskBytes };
    try {
      const stats = await withTimeout(statfs(deps.dataDir));
      const freeBytes = stats.bavail * stats.bsize;
      return { ...base, freeBytes, status: freeBytes < deps.minFreeDiskBytes ? 'failing' : 'ok' };
    } catch (error) {
      return { ...base, freeBytes: 0, status: 'failing', error: (error as Error).message };
    }
  }

  return {
    async report(): Promise<HealthReport> {
      const loaderState = deps.loader();
      const lagMs =
        loaderState.oldestPendingAt === undefined
          ? 0
          : Math.max(0, deps.clock().getTime() - loaderState.oldestPendingAt);
      const [accountsStore, eventStore, diskCheck, waiting, alertsWaiting] = await Promise.all([
        timed(() => sql`select 1`.execute(deps.db)),
        timed(() => deps.eventStore.ping()),
        disk(),
        withTimeout(deps.mailWaiting()).catch(() => null),
        withTimeout(deps.alertDeliveriesWaiting()).catch(() => null),
      ]);
      const loader = {
        status: (lagMs > deps.maxLoaderLagMs ? 'failing' : 'ok') as CheckStatus,
        lagSeconds: Math.round(lagMs / 100) / 10,
        maxLagSeconds: deps.maxLoaderLagMs / 1000,
        pendingBytes: loaderState.pendingBytes,
        quarantinedRecords: loaderState.quarantined,
      };
      const checks = {
        accountsStore,
        eventStore,
        loader,
        disk: diskCheck,
        mail: { waiting },
        alertDeliveries: { waiting: alertsWaiting },
      };
      const isFailing = [accountsStore, eventStore, loader, diskCheck].some(
        (check) => check.status === 'failing',
      );
      return { status: isFailing ? 'failing' : 'ok', checks };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
