import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * A few reader connections of the event store's DuckDB instance, opened on first use. A connection runs
 * one query at a time; the console asks for a dozen figures at once, so they queue for a free connection.
 */
export type ConnectionPool = {
  use<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
  close(): void;
};

export function createConnectionPool(connect: () => Promise<DuckDBConnection>, size = 3): ConnectionPool {
  const idle: DuckDBConnection[] = [];
  const all: DuckDBConnection[] = [];
  const waiting: ((connection: DuckDBConnection) => void)[] = [];
  let opening = 0;

  async function acquire(): Promise<DuckDBConnection> {
    const free = idle.pop();
    if (free) return free;
    if (all.length + opening < size) {
      opening++;
      try {
        const connection = await connect();
        all.push(connection);
        return connection;
      } finally {
        opening--;
      }
    }
    return new Promise((resolve) => waiting.push(resolve));
  }

  function release(connection: DuckDBConnection): void {
    const next = waiting.shift();
    if (next) next(connection);
    else idle.push(connection);
  }

  return {
    async use(work) {
      const connection = await acquire();
      try {
        return await work(connection);
      } finally {
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
