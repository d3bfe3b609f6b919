import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { pageView, postBatch, storedEvents } from './support.ts';

const harness = useTestApp('sqlite');

// Node's asynchronous file calls and DuckDB's queries share libuv's thread pool (4 threads unless
// UV_THREADPOOL_SIZE says otherwise). Two more long queries than it has threads, as another project's
// dashboards or exports make them, take every thread of it.
const POOL_THREADS = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
const instance = await DuckDBInstance.create(':memory:');
afterAll(() => instance.closeSync());

describe('ingestion: acknowledgements wait for no query', () => {
  it('acknowledges a batch, durably, while every thread of the pool runs a long query', async () => {
    const { project } = await seed(harness.services)
      .user()
      .verified()
      .project('Busy')
      .apiKey()
      .domain('app.example.com');
    const connections = await Promise.all(Array.from({ length: POOL_THREADS + 2 }, () => instance.connect()));
    let firstQueryEndedAt = Number.POSITIVE_INFINITY;
    const queries = connections.map((connection) =>
      connection
        .run('SELECT sum(i * i % 7) FROM range(20000000000) t(i)')
        .catch(() => undefined)
        .finally(() => {
          firstQueryEndedAt = Math.min(firstQueryEndedAt, performance.now());
        }),
    );
    try {
      // Let the queries take the threads first.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const response = await postBatch(harness.app, {
        apiKey: project.apiKey as string,
        events: [pageView(), pageView()],
      });
      const ackedAt = performance.now();
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ accepted: 2 });
      // Answered (after its fdatasync) while the queries still held every thread of the pool.
      expect(ackedAt).toBeLessThan(firstQueryEndedAt);
    } finally {
      // A query still queued for a thread when interrupted starts afterwards: interrupt until all ended.
      const interrupting = setInterval(() => {
        for (const connection of connections) connection.interrupt();
      }, 20);
      await Promise.all(queries);
      clearInterval(interrupting);
      for (const connection of connections) connection.closeSync();
    }
    expect(await storedEvents(harness.services, project.id)).toHaveLength(2);
  }, 60_000);
});
