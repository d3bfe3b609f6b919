import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { ClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import { FORCE_MERGE_AGE_SECONDS } from '../../src/modules/event-store/clickhouse/schema.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { databaseAtVersion } from './clickhouse-older-database.ts';
import { eventBuilder } from './event-builder.ts';
import { writeSegment } from './segment-file.ts';

/**
 * Schema version 23 (ADR 097): every MergeTree table of the database is merged into one part once, and
 * holds `min_age_to_force_merge_seconds`, so that ClickHouse merges its parts once they are an hour old
 * whatever their sizes, and `FINAL` and the folds read few parts.
 */

const SLOW = 120_000;
const suite = useChdbSuite('polyflow-ch-merges-', SLOW);
const event = eventBuilder('p-ch-merges');
const DAY0 = Date.UTC(2026, 1, 1);

const TableRow = z.object({ name: z.string(), engine_full: z.string(), parts: z.coerce.number() });

/** Each MergeTree table of the database (but the schema's own), its settings and active parts. */
function mergeTreeTables(clickhouse: ClickHouse) {
  return clickhouse.rows(
    `SELECT t.name AS name, t.engine_full AS engine_full, countIf(p.active) AS parts
       FROM system.tables AS t
       LEFT JOIN system.parts AS p ON p.database = t.database AND p.table = t.name
      WHERE t.database = currentDatabase() AND t.engine LIKE '%MergeTree' AND t.name != 'schema_version'
      GROUP BY t.name, t.engine_full
      ORDER BY t.name`,
    {},
    TableRow,
  );
}

const segment = (offset: number) =>
  writeSegment(suite.dir, [
    event('page_view', DAY0 + offset, { path: '/', user_id: `u${offset}`, session_id: `s${offset}` }),
    event('wallet_connected', DAY0 + offset + 1, {
      user_id: `u${offset}`,
      session_id: `s${offset}`,
      wallet_address: `0x${String(offset).padStart(40, '0')}`,
    }),
    event('error', DAY0 + offset + 2, { error_message: 'execution reverted', incident_id: 'inc_1' }),
  ]);

describe('ClickHouse schema version 23', () => {
  let store: ClickHouseEventStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  it(
    'merges each table of a database an earlier release loaded into one part, and sets its forced merges',
    async () => {
      const url = `${suite.url}/pf_merges_v18`;
      await databaseAtVersion(url, 18, async (writer) => {
        for (const offset of [1_000, 2_000, 3_000]) await writer.loadSegment(segment(offset));
      });
      store = await createClickHouseEventStore(url);
      const tables = await mergeTreeTables(store.clickhouse);
      expect(tables.map((table) => table.name)).toContain('events');
      for (const table of tables) {
        expect(table.engine_full, table.name).toContain(
          `min_age_to_force_merge_seconds = ${FORCE_MERGE_AGE_SECONDS}`,
        );
        expect(table.parts, table.name).toBeLessThanOrEqual(1);
      }
      const [events] = await store.clickhouse.rows(
        'SELECT count() AS n FROM events FINAL',
        {},
        z.object({ n: z.coerce.number() }),
      );
      expect(events?.n).toBe(9);
    },
    SLOW,
  );

  it(
    'gives every table of a new database the forced merges',
    async () => {
      store = await createClickHouseEventStore(`${suite.url}/pf_merges_new`);
      const tables = await mergeTreeTables(store.clickhouse);
      expect(tables.length).toBeGreaterThan(10);
      for (const table of tables)
        expect(table.engine_full, table.name).toContain(
          `min_age_to_force_merge_seconds = ${FORCE_MERGE_AGE_SECONDS}`,
        );
    },
    SLOW,
  );
});
