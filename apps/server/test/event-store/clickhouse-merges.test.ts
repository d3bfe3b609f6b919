import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ClickHouseEventStore,
  createClickHouseEventStore,
} from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { type ClickHouse, connectClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { databaseAtVersion } from './clickhouse-older-database.ts';
import { eventBuilder } from './event-builder.ts';
import { writeSegment } from './segment-file.ts';

/**
 * Schema version 23 (ADR 097): every MergeTree table of the database is merged into one part once, so
 * that `FINAL` and the folds read one part where a store's parts overlapped.
 */

const SLOW = 120_000;
const suite = useChdbSuite('polyflow-ch-merges-', SLOW);
const event = eventBuilder('p-ch-merges');
const DAY0 = Date.UTC(2026, 1, 1);

const TableRow = z.object({ name: z.string(), parts: z.coerce.number() });

/** Each MergeTree table of the database (but the schema's own) with its active parts. */
function mergeTreeTables(clickhouse: ClickHouse) {
  return clickhouse.rows(
    `SELECT t.name AS name, countIf(p.active) AS parts
       FROM system.tables AS t
       LEFT JOIN system.parts AS p ON p.database = t.database AND p.table = t.name
      WHERE t.database = currentDatabase() AND t.engine LIKE '%MergeTree' AND t.name != 'schema_version'
      GROUP BY t.name
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
    'merges each table of a database an earlier release loaded into one part',
    async () => {
      const url = `${suite.url}/pf_merges_v18`;
      await databaseAtVersion(url, 18, async (writer) => {
        const files = [1_000, 2_000, 3_000].map(segment);
        for (const file of [...files, files[0] as string]) await writer.loadSegment(file);
      });
      // No background merge of the loads' parts: what is merged below, the upgrade merged.
      const old = await connectClickHouse(url);
      for (const { name } of await mergeTreeTables(old))
        await old.command(`ALTER TABLE ${name} MODIFY SETTING max_bytes_to_merge_at_max_space_in_pool = 1`);
      const before = await mergeTreeTables(old);
      await old.close();
      expect(before.find((table) => table.name === 'events')?.parts).toBe(4);

      store = await createClickHouseEventStore(url);
      const after = await mergeTreeTables(store.clickhouse);
      // Later versions may add tables; every table the older release had is there, in one part.
      expect(after.map((table) => table.name)).toEqual(
        expect.arrayContaining(before.map((table) => table.name)),
      );
      for (const table of after) expect(table.parts, table.name).toBeLessThanOrEqual(1);
      // The segment loaded twice is there once, as FINAL read it before.
      const [events] = await store.clickhouse.rows(
        'SELECT count() AS n FROM events',
        {},
        z.object({ n: z.coerce.number() }),
      );
      expect(events?.n).toBe(9);
    },
    SLOW,
  );
});
