import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLeadership, type Leadership, lockKey } from '../../src/db/leadership.ts';
import { createTestDatabase } from '../support/postgres.ts';

/** Background work that must run once (ADR 019): one advisory lock per job name, on a dedicated connection. */
const TRY_EVERY_MS = 200;
const silent = { info: () => undefined, error: () => undefined };

let databaseUrl: string;
const opened: Leadership[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase(
    inject('postgresAdminUrl'),
    `pf_lead_${randomBytes(4).toString('hex')}`,
  );
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((leadership) => leadership.close()));
});

/** A node's leadership with a job that records when it runs. */
function node(name: string, store: 'postgres' | 'sqlite' = 'postgres') {
  const url = store === 'postgres' ? databaseUrl : undefined;
  const leadership = createLeadership({ databaseUrl: url, logger: silent, tryEveryMs: TRY_EVERY_MS });
  opened.push(leadership);
  const runs = { started: 0, stopped: 0 };
  leadership.runWhileLeading('compaction', () => {
    runs.started++;
    return {
      stop() {
        runs.stopped++;
      },
    };
  });
  const isRunning = () => runs.started > runs.stopped;
  return { name, leadership, runs, isRunning };
}

async function waitFor(condition: () => boolean | Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > withinMs) throw new Error(`not true within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

/** The backend (server process id) holding the job's lock, as PostgreSQL sees it. */
async function lockHolder(admin: pg.Client, job: string): Promise<number | null> {
  const result = await admin.query<{ pid: number }>(
    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = ($1::bigint & 4294967295)::oid",
    [lockKey(job)],
  );
  return result.rows[0]?.pid ?? null;
}

describe('leadership on PostgreSQL', () => {
  it('runs a job on exactly one of two nodes, and moves it when the leader closes', async () => {
    const a = node('a');
    const b = node('b');
    await waitFor(() => a.isRunning() || b.isRunning(), 5_000);
    // Several more rounds of tries: the other never gets it.
    await new Promise((resolve) => setTimeout(resolve, TRY_EVERY_MS * 5));
    expect([a.isRunning(), b.isRunning()].filter(Boolean)).toHaveLength(1);
    const [leader, follower] = a.isRunning() ? [a, b] : [b, a];
    expect(leader.leadership.isLeading('compaction')).toBe(true);
    expect(follower.leadership.isLeading('compaction')).toBe(false);
    expect(follower.runs.started).toBe(0);

    await leader.leadership.close();
    expect(leader.runs).toEqual({ started: 1, stopped: 1 });
    const tookOver = await waitFor(() => follower.isRunning(), 5_000);
    expect(tookOver).toBeLessThanOrEqual(TRY_EVERY_MS * 2 + 500);
  });

  it("moves the job when the leader's connection is killed, and stops it on the old leader", async () => {
    const a = node('a');
    const b = node('b');
    await waitFor(() => a.isRunning() || b.isRunning(), 5_000);
    const [leader, follower] = a.isRunning() ? [a, b] : [b, a];

    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      const pid = await lockHolder(admin, 'compaction');
      expect(pid).not.toBeNull();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await waitFor(() => !leader.isRunning(), 5_000);
      const tookOver = await waitFor(() => follower.isRunning(), 5_000);
      expect(tookOver).toBeLessThanOrEqual(TRY_EVERY_MS * 2 + 1_000);
      // Never both at once after the hand-over; the old leader now follows.
      await new Promise((resolve) => setTimeout(resolve, TRY_EVERY_MS * 5));
      expect(leader.isRunning()).toBe(false);
      expect(follower.isRunning()).toBe(true);
      expect(await lockHolder(admin, 'compaction')).not.toBe(pid);
    } finally {
      await admin.end();
    }
  });

  it('sits out a few rounds after losing its connection, then leads again when no one else did', async () => {
    const only = node('only');
    await waitFor(() => only.isRunning(), 5_000);
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [await lockHolder(admin, 'compaction')]);
      await waitFor(() => !only.isRunning(), 5_000);
      // A node whose connection held would take the job in these rounds; this one does not race back.
      await new Promise((resolve) => setTimeout(resolve, TRY_EVERY_MS * 3));
      expect(only.runs.started).toBe(1);
      await waitFor(() => only.isRunning(), 5_000);
      expect(only.runs.started).toBe(2);
    } finally {
      await admin.end();
    }
  });

  it('keeps different jobs apart: each name is its own lock', async () => {
    const a = createLeadership({ databaseUrl, logger: silent, tryEveryMs: TRY_EVERY_MS });
    const b = createLeadership({ databaseUrl, logger: silent, tryEveryMs: TRY_EVERY_MS });
    opened.push(a, b);
    a.runWhileLeading('retention', () => ({ stop: () => undefined }));
    await waitFor(() => a.isLeading('retention'), 5_000);
    b.runWhileLeading('alerts', () => ({ stop: () => undefined }));
    await waitFor(() => b.isLeading('alerts'), 5_000);
    expect(() => a.runWhileLeading('retention', () => ({ stop: () => undefined }))).toThrow(/twice/);
  });
});

describe('leadership on SQLite (one node)', () => {
  it('runs the job at once and stops it on close', async () => {
    const only = node('only', 'sqlite');
    expect(only.isRunning()).toBe(true);
    await only.leadership.close();
    expect(only.runs).toEqual({ started: 1, stopped: 1 });
  });
});
