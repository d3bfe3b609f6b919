import type { DuckDBConnection } from '@duckdb/node-api';
import { createFairScheduler } from '../fair-scheduler.ts';

/**
 * A few reader connections of the event store's DuckDB instance, opened on first use. A connection runs
 * one query at a time; the console asks for a dozen figures at once, so they queue for a free connection.
 * They queue per project and take turns: a freed connection goes to the waiting project that was served
 * least recently. However many questions one project asks at once (its dashboards on a large range, an
 * export, a script), another project's question waits for at most one of its questions per connection,
 * not for all of them (ADR 034). Long reads (an export's windows, `isLong`) run on at most `size - 1`
 * connections at once, all projects together: one connection is always left to the dashboards'
 * questions, which never wait for a long read to end (ADR 047). A project alone still uses them all.
 * The turns are the event store's fair scheduler's (fair-scheduler.ts), a slot per connection.
 */
export type ConnectionPool = {
  use<T>(projectId: string, work: (connection: DuckDBConnection) => Promise<T>, isLong?: boolean): Promise<T>;
  close(): void;
};

export function createConnectionPool(connect: () => Promise<DuckDBConnection>, size = 3): ConnectionPool {
  const scheduler = createFairScheduler({ slots: size, maxLong: size - 1 });
  /** Connections free; with those in use never more than `size`, as the scheduler runs `size` at most. */
  const idle: DuckDBConnection[] = [];
  const all: DuckDBConnection[] = [];

  async function take(): Promise<DuckDBConnection> {
    const free = idle.pop();
    if (free) return free;
    const connection = await connect();
    all.push(connection);
    return connection;
  }

  return {
    use(projectId, work, isLong = false) {
      return scheduler.run(
        projectId,
        async () => {
          const connection = await take();
          try {
            return await work(connection);
          } finally {
            idle.push(connection);
          }
        },
        isLong,
      );
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
