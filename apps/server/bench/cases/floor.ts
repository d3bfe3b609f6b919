import { z } from 'zod';
import type { ClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import * as clickhouseSql from '../../src/modules/event-store/clickhouse/sql.ts';
import * as duckdbSql from '../../src/modules/event-store/duckdb/sql.ts';
import type { BenchCase, DuckBenchContext } from '../bench-case.ts';

/**
 * The floor of each engine's questions on this machine: what any question pays that no design of ours
 * avoids. One trivial statement (a round trip, parsing and planning with nothing to read), and the plainest
 * read of the dashboard's period: the project's events in the range, counted, over the table sorted by
 * (project, time) on both engines. A question's p95 and CPU beside these two give its ratio to the floor.
 */
const clickhouseOf = (c: DuckBenchContext) =>
  'clickhouse' in c.store ? (c.store as ClickHouseEventStore).clickhouse : undefined;
const Count = z.object({ n: z.coerce.number() });

async function ask(c: DuckBenchContext, sql: { duckdb: string; clickhouse: string }, ranged: boolean) {
  const clickhouse = clickhouseOf(c);
  if (clickhouse)
    return clickhouse.rows(
      sql.clickhouse,
      ranged ? clickhouseSql.rangeParams(c.projectId, c.range) : {},
      Count,
    );
  const reader = await c.connection.runAndReadAll(
    sql.duckdb,
    ranged ? duckdbSql.rangeParams(c.projectId, c.range) : {},
  );
  return reader.getRowObjectsJS();
}

const noPostgres = async () => {
  throw new Error('no PostgreSQL floor');
};

export const cases: BenchCase[] = [
  {
    name: 'floor: one trivial statement (SELECT 1)',
    duckdb: (c) => ask(c, { duckdb: 'SELECT 1 AS n', clickhouse: 'SELECT 1 AS n' }, false),
    postgres: noPostgres,
  },
  {
    name: "floor: the period's events counted",
    duckdb: (c) =>
      ask(
        c,
        {
          duckdb: `SELECT count(*)::DOUBLE AS n FROM events WHERE ${duckdbSql.IN_RANGE}`,
          clickhouse: `SELECT count() AS n FROM events WHERE ${clickhouseSql.IN_RANGE}`,
        },
        true,
      ),
    postgres: noPostgres,
  },
];
