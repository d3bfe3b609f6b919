import type { DuckDBConnection } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COMPACTION_POLICY,
  isCompactionDue,
} from '../../src/modules/event-store/duckdb/compaction.ts';
import {
  DERIVED_TABLE_NAMES,
  rebuildDerivedTables,
} from '../../src/modules/event-store/duckdb/derived-tables.ts';
import { asDuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { dataOf } from '../analytics/graphql-client.ts';
import { useAnalyticsWorld } from '../analytics/setup.ts';
import { pageView, postBatch, storedEvents } from '../ingestion/support.ts';
import { seed } from '../support/seed.ts';

const world = useAnalyticsWorld();

const OVERVIEW = `query Overview($projectId: ID!, $from: DateTime, $to: DateTime) {
  analyticsOverview(projectId: $projectId, from: $from, to: $to) {
    totalTransactions connectedWallets newWallets submittedTransactions failedTransactions
    transactionFailRate dailyActiveWallets averageTransactionsPerUserPerDay
  }
}`;
const RANGE = { from: '2026-01-01T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' };

async function withConnection<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const connection = await asDuckDbEventStore(world.test.services.eventStore).connect();
  try {
    return await work(connection);
  } finally {
    connection.closeSync();
  }
}

/** Row count and an order-independent checksum of every column of every row. */
const fingerprint = () =>
  withConnection(async (connection) => {
    const reader = await connection.runAndReadAll(
      'SELECT count(*)::VARCHAR AS n, bit_xor(hash(e))::VARCHAR AS checksum FROM events e',
    );
    return reader.getRowObjectsJS()[0];
  });

/** Whether the rows are stored in (project_id, ts) order (rowid is the physical position). */
const isClustered = () =>
  withConnection(async (connection) => {
    const reader = await connection.runAndReadAll(`
      SELECT count(*)::INTEGER AS out_of_order FROM (
        SELECT project_id, ts, lag(project_id) OVER w AS prev_project, lag(ts) OVER w AS prev_ts
        FROM events WINDOW w AS (ORDER BY rowid)
      ) WHERE prev_project > project_id OR (prev_project = project_id AND prev_ts > ts)`);
    return reader.getRowObjectsJS()[0]?.out_of_order === 0;
  });

/** Every derived table's rows (ADR 054), in a stable order. */
const derivedRows = () =>
  withConnection(async (connection) => {
    const snapshot: Record<string, unknown[]> = {};
    for (const name of DERIVED_TABLE_NAMES) {
      snapshot[name] = (
        await connection.runAndReadAll(`SELECT * FROM ${name} ORDER BY ALL`)
      ).getRowObjectsJS();
    }
    return snapshot;
  });

describe('event table compaction (ADR 004)', () => {
  it('is due only for a large enough table with enough new rows', () => {
    const policy = DEFAULT_COMPACTION_POLICY;
    expect(isCompactionDue(1_000, 1_000, policy)).toBe(false);
    expect(isCompactionDue(1_000_000, 100_000, policy)).toBe(false);
    expect(isCompactionDue(1_000_000, 200_000, policy)).toBe(true);
    expect(isCompactionDue(50_000_000, 1_000_000, policy)).toBe(true);
    expect(isCompactionDue(1_000_000, 0, policy)).toBe(false);
  });

  it('skips a small table unless forced', async () => {
    const result = await asDuckDbEventStore(world.test.services.eventStore).compact();
    expect(result.compacted).toBe(false);
  });

  it('rewrites the table clustered, keeps every row, the key, the loader and the answers', async () => {
    const { services, app } = world.test;
    const { project: shop } = await seed(services)
      .user()
      .verified()
      .project('Shop')
      .apiKey()
      .domain('app.example.com');
    const apiKey = shop.apiKey as string;
    // A later event arriving first: in arrival order the table is not clustered by (project_id, ts).
    for (const ts of [Date.now(), Date.now() - 60_000]) {
      const response = await postBatch(app, { apiKey, events: [pageView({ ts }), pageView({ ts })] });
      expect(response.statusCode).toBe(200);
    }
    await services.events.flush();
    const before = await fingerprint();
    const answerBefore = dataOf(await world.gql(OVERVIEW, { projectId: world.main, ...RANGE }));
    expect(await isClustered()).toBe(false);

    // A batch acknowledged while the compaction runs waits in the log, then loads after it.
    const compaction = asDuckDbEventStore(services.eventStore).compact({ force: true });
    const during = pageView();
    const ack = await postBatch(app, { apiKey, events: [during] });
    expect(ack.json()).toEqual({ accepted: 1, duplicates: 0 });
    const result = await compaction;
    expect(result).toMatchObject({ compacted: true, rows: Number(before?.n) });

    await services.events.flush();
    expect((await storedEvents(services, shop.id)).map((row) => row.id)).toContain(during.id);
    const after = await withConnection(async (connection) => {
      const reader = await connection.runAndReadAll(
        `SELECT count(*)::VARCHAR AS n, bit_xor(hash(e))::VARCHAR AS checksum FROM events e WHERE id <> $1`,
        [during.id],
      );
      return reader.getRowObjectsJS()[0];
    });
    expect(after).toEqual(before);

    // The primary key survived the rewrite: a duplicate (project_id, id) is refused.
    await withConnection(async (connection) => {
      await expect(connection.run('INSERT INTO events SELECT * FROM events LIMIT 1')).rejects.toThrow(
        /duplicate key|constraint/i,
      );
    });
    // A retry through ingestion is still stored once.
    await postBatch(app, { apiKey, events: [during] });
    await services.events.flush();
    expect((await storedEvents(services, shop.id)).filter((row) => row.id === during.id)).toHaveLength(1);

    // Pooled reader connections opened before the rewrite answer the same through GraphQL.
    expect(dataOf(await world.gql(OVERVIEW, { projectId: world.main, ...RANGE }))).toEqual(answerBefore);

    // Nothing new since: the next check leaves the table alone; a forced one clusters the tail too.
    expect((await asDuckDbEventStore(services.eventStore).compact()).compacted).toBe(false);
    await asDuckDbEventStore(services.eventStore).compact({ force: true });
    expect(await isClustered()).toBe(true);
    expect(dataOf(await world.gql(OVERVIEW, { projectId: world.main, ...RANGE }))).toEqual(answerBefore);
  });

  it('keeps the derived tables as a rebuild from the events would make them, clustered too', async () => {
    const before = await derivedRows();
    expect(before.sessions?.length).toBeGreaterThan(0);
    await asDuckDbEventStore(world.test.services.eventStore).compact({ force: true });
    expect(await derivedRows()).toEqual(before);
    await withConnection(async (connection) => {
      await connection.run('BEGIN TRANSACTION');
      await rebuildDerivedTables(connection);
      const rebuilt: Record<string, unknown[]> = {};
      for (const name of DERIVED_TABLE_NAMES) {
        rebuilt[name] = (
          await connection.runAndReadAll(`SELECT * FROM ${name} ORDER BY ALL`)
        ).getRowObjectsJS();
      }
      await connection.run('ROLLBACK');
      expect(rebuilt).toEqual(before);
      const reader = await connection.runAndReadAll(`
        SELECT count(*)::INTEGER AS out_of_order FROM (
          SELECT project_id, lag(project_id) OVER (ORDER BY rowid) AS previous FROM sessions
        ) WHERE previous > project_id`);
      expect(reader.getRowObjectsJS()[0]?.out_of_order).toBe(0);
    });
  });
});
