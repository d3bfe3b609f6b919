import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * A few reader connections of the event store's DuckDB instance, opened on first use. A connection runs
 * one query at a time; the console asks for a dozen figures at once, so they queue for a free connection.
 * They queue per project and take turns: a freed connection goes to the waiting project that was served
 * least recently. However many questions one project asks at once (its dashboards on a large range, an
 * export, a script), another project's question waits for at most one of its questions per connection,
 * not for all of them (ADR 034). Long reads (an export's windows, `isLong`) run on at most `size - 1`
 * connections at once, all projects together: one connection is always left to the dashboards'
 * questions, which never wait for a long read to end (ADR 047). A project alone still uses them all.
 */
export type ConnectionPool = {
  use<T>(projectId: string, work: (connection: DuckDBConnection) => Promise<T>, isLong?: boolean): Promise<T>;
  close(): void;
};

export function createConnectionPool(connect: () => Promise<DuckDBConnection>, size = 3): ConnectionPool {
  const idle: DuckDBConnection[] = [];
  const all: DuckDBConnection[] = [];
  /** Per project, its questions waiting for a connection. */
  const waiting = new Map<string, { resolve: (connection: DuckDBConnection) => void; isLong: boolean }[]>();
  /**
   * Per project with questions running or waiting: how many run, and when it was last given a connection
   * (a count of grants). Forgotten when it has none left, so it holds the active projects only.
   */
  const active = new Map<string, { running: number; lastTurn: number }>();
  let turns = 0;
  let opening = 0;
  const maxLong = Math.max(1, size - 1);
  let longRunning = 0;

  function granted(projectId: string): void {
    const project = active.get(projectId);
    turns++;
    if (project) {
      project.running++;
      project.lastTurn = turns;
    } else active.set(projectId, { running: 1, lastTurn: turns });
  }

  function finished(projectId: string): void {
    const project = active.get(projectId);
    if (!project) return;
    project.running--;
    if (project.running === 0 && !waiting.has(projectId)) active.delete(projectId);
  }

  async function acquire(projectId: string, isLong: boolean): Promise<DuckDBConnection> {
    const canRun = !isLong || longRunning < maxLong;
    const free = canRun ? idle.pop() : undefined;
    if (free) {
      granted(projectId);
      if (isLong) longRunning++;
      return free;
    }
    if (canRun && all.length + opening < size) {
      opening++;
      granted(projectId);
      if (isLong) longRunning++;
      try {
        const connection = await connect();
        all.push(connection);
        return connection;
      } catch (error) {
        finished(projectId);
        if (isLong) longRunning--;
        throw error;
      } finally {
        opening--;
      }
    }
    return new Promise((resolve) => {
      const queue = waiting.get(projectId);
      if (queue) queue.push({ resolve, isLong });
      else waiting.set(projectId, [{ resolve, isLong }]);
    });
  }

  function release(connection: DuckDBConnection): void {
    // The waiting project served least recently (never, for one with nothing running): the first such
    // in the order they began to wait.
    // A long read waits while `maxLong` run; the question behind it in its project's queue does not.
    let next: string | undefined;
    let nextIndex = -1;
    let nextTurn = Number.POSITIVE_INFINITY;
    for (const [projectId, queue] of waiting) {
      const lastTurn = active.get(projectId)?.lastTurn ?? 0;
      if (lastTurn >= nextTurn) continue;
      const index = longRunning < maxLong ? 0 : queue.findIndex((entry) => !entry.isLong);
      if (index < 0) continue;
      next = projectId;
      nextIndex = index;
      nextTurn = lastTurn;
    }
    const queue = next === undefined ? undefined : waiting.get(next);
    if (next === undefined || !queue) {
      idle.push(connection);
      return;
    }
    const [entry] = queue.splice(nextIndex, 1);
    if (queue.length === 0) waiting.delete(next);
    granted(next);
    if (entry?.isLong) longRunning++;
    entry?.resolve(connection);
  }

  return {
    async use(projectId, work, isLong = false) {
      const connection = await acquire(projectId, isLong);
      try {
        return await work(connection);
      } finally {
        if (isLong) longRunning--;
        finished(projectId);
        release(connection);
      }
    },
    close() {
      for (const connection of all) {
        try {
          connection.closeSync();
        } catch {
          // Already gone with its instance: nothing left to release.
        }
      }
      all.length = 0;
      idle.length = 0;
    },
  };
}
