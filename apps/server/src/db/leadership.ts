import type pg from 'pg';

/** Background work started when this node becomes the one to run it; `stop` ends it. */
export type LeaderJob = () => { stop(): Promise<void> | void };

export type LeadershipLogger = {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
};

/**
 * Work that must run on exactly one node at a time (store maintenance, retention, later alerts;
 * docs/scaling.md, ADR 019). On SQLite there is one node, so a job simply runs. On PostgreSQL each job
 * name is a session-level advisory lock held by one dedicated connection of the leading node: the lock
 * goes when that connection goes (the process died, or the network took it), and another node takes it
 * on its next try.
 */
export type Leadership = {
  /** Runs `start` while this node holds `name`; the job's `stop` is called when it loses it or closes. */
  runWhileLeading(name: string, start: LeaderJob): void;
  /** Whether this node runs `name` now. */
  isLeading(name: string): boolean;
  /** Stops every job this node runs, then lets the locks go. */
  close(): Promise<void>;
};

export type LeadershipOptions = {
  /** PostgreSQL: locks there; undefined (SQLite, one node): every job runs here. */
  databaseUrl: string | undefined;
  logger: LeadershipLogger;
  /** How often a node that does not lead tries to take the locks, and the leader checks its connection. */
  tryEveryMs?: number;
};

/** Default interval of tries and checks: another node takes over within about this after the leader's connection drops. */
export const LEADERSHIP_TRY_EVERY_MS = 1_000;
/**
 * Rounds a node sits out after losing its lock connection before it connects again, so that the jobs move to
 * a node whose connection held (the lost one's locks are free at once) instead of racing back to it.
 */
const RECONNECT_AFTER_ROUNDS = 5;

/** A check of the leader's connection that takes longer than this counts as a lost connection. */
const CHECK_TIMEOUT_MS = 3_000;
/** First number of every Polyflow advisory lock (two-integer form), so they never meet another application's. */
const LOCK_NAMESPACE = 0x706c7966; // "plyf"

type Job = { name: string; key: number; start: LeaderJob; running?: { stop(): Promise<void> | void } };

export function createLeadership(options: LeadershipOptions): Leadership {
  return options.databaseUrl
    ? postgresLeadership({ ...options, databaseUrl: options.databaseUrl })
    : localLeadership(options.logger);
}

function startJob(job: Job, logger: LeadershipLogger): boolean {
  try {
    job.running = job.start();
    logger.info({ job: job.name }, 'this node now runs the background job');
    return true;
  } catch (error) {
    logger.error({ err: error, job: job.name }, 'the background job could not start');
    return false;
  }
}

async function stopJob(job: Job, logger: LeadershipLogger, reason: string): Promise<void> {
  const running = job.running;
  if (!running) return;
  job.running = undefined;
  try {
    await running.stop();
  } catch (error) {
    logger.error({ err: error, job: job.name }, 'the background job did not stop cleanly');
  }
  logger.info({ job: job.name, reason }, 'this node no longer runs the background job');
}

/** One node: a job runs from registration to close. */
function localLeadership(logger: LeadershipLogger): Leadership {
  const jobs = new Map<string, Job>();
  return {
    runWhileLeading(name, start) {
      if (jobs.has(name)) throw new Error(`background job "${name}" is registered twice`);
      const job: Job = { name, key: 0, start };
      jobs.set(name, job);
      startJob(job, logger);
    },
    isLeading: (name) => jobs.get(name)?.running !== undefined,
    async close() {
      await Promise.all([...jobs.values()].map((job) => stopJob(job, logger, 'shutdown')));
    },
  };
}

/** A stable 32-bit signed number for a job name (FNV-1a), the second half of its lock. */
export function lockKey(name: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(name)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

function postgresLeadership({
  databaseUrl,
  logger,
  tryEveryMs = LEADERSHIP_TRY_EVERY_MS,
}: LeadershipOptions & { databaseUrl: string }): Leadership {
  const jobs = new Map<string, Job>();
  let client: pg.Client | undefined;
  let isClosed = false;
  let round: Promise<void> | undefined;
  /** After losing its connection a node sits out a few rounds: a follower with a healthy connection takes the jobs first. */
  let reconnectAfterMs = 0;

  /** The lock connection is gone: whatever it held is free for others now, so nothing may run here. */
  async function dropConnection(reason: string, error?: unknown): Promise<void> {
    const lost = client;
    client = undefined;
    if (!lost) return;
    reconnectAfterMs = Date.now() + tryEveryMs * RECONNECT_AFTER_ROUNDS;
    const wasLeading = [...jobs.values()].some((job) => job.running);
    if (error && wasLeading) logger.error({ err: error }, 'lost the connection holding the background locks');
    await Promise.all([...jobs.values()].map((job) => stopJob(job, logger, reason)));
    lost.removeAllListeners('error');
    lost.on('error', () => undefined);
    await lost.end().catch(() => undefined);
  }

  async function connect(): Promise<pg.Client> {
    const { default: pgModule } = await import('pg');
    const next = new pgModule.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: 5_000,
      query_timeout: CHECK_TIMEOUT_MS,
      application_name: 'polyflow-leadership',
    });
    next.on('error', (error) => void dropConnection('connection lost', error));
    await next.connect();
    // The server drops the locks of a node that vanished without closing its socket (power loss, a
    // partition) after about 10 + 5 × 3 s of silence, instead of the kernel's two hours.
    await next.query(
      'SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3',
    );
    return next;
  }

  async function tryRound(): Promise<void> {
    if (isClosed || jobs.size === 0) return;
    if (!client && Date.now() < reconnectAfterMs) return;
    try {
      client ??= await connect();
      const current = client;
      // Also the leader's check: a connection that no longer answers holds no lock we can trust.
      await current.query('SELECT 1');
      for (const job of jobs.values()) {
        if (job.running || isClosed || client !== current) continue;
        const result = await current.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock($1, $2) AS locked',
          [LOCK_NAMESPACE, job.key],
        );
        if (result.rows[0]?.locked !== true) continue;
        if (isClosed || !startJob(job, logger)) {
          await current.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, job.key]);
        }
      }
    } catch (error) {
      await dropConnection('connection lost', error);
    }
  }

  function tick(): void {
    if (round) return;
    round = tryRound().finally(() => {
      round = undefined;
    });
  }

  const timer = setInterval(tick, tryEveryMs);
  timer.unref();

  return {
    runWhileLeading(name, start) {
      if (jobs.has(name)) throw new Error(`background job "${name}" is registered twice`);
      const key = lockKey(name);
      const clash = [...jobs.values()].find((job) => job.key === key);
      if (clash) throw new Error(`background jobs "${name}" and "${clash.name}" share a lock; rename one`);
      jobs.set(name, { name, key, start });
      tick();
    },
    isLeading: (name) => jobs.get(name)?.running !== undefined,
    async close() {
      isClosed = true;
      clearInterval(timer);
      await round;
      // Ending the connection releases every lock it holds; the jobs stop first so no two nodes overlap.
      await dropConnection('shutdown');
    },
  };
}
