import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { createClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { SCHEMA_VERSION } from '../../src/modules/event-store/clickhouse/schema.ts';
import { createStatements, emptiedForReuse, templatedClickHouseStore } from '../support/chdb-template.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { eventBuilder } from './event-builder.ts';
import { writeSegment } from './segment-file.ts';

/**
 * The test databases cloned from the engine's migrated template (test/support/chdb-template.ts, ADR 108)
 * hold what the store's own migrations make of an empty database: the same tables and views, statement
 * for statement, the same schema version, and loads reach the derived tables through the views.
 */
const SLOW = 120_000;
const suite = useChdbSuite('polyflow-ch-template-', SLOW);

async function schemaOf(store: ClickHouseEventStore): Promise<string[]> {
  const { database } = store.clickhouse;
  return (await createStatements(store.clickhouse, database)).map((statement) =>
    statement.replaceAll(`${database}.`, 'db.'),
  );
}

describe('ClickHouse test databases cloned from a migrated template', { timeout: SLOW }, () => {
  it('hold the migrated tables and views, at the current schema version, and load through the views', async () => {
    const migrated = await createClickHouseEventStore(`${suite.url}/pf_template_migrated`);
    const cloned = await templatedClickHouseStore(`${suite.url}/pf_template_cloned`);
    try {
      const statements = await schemaOf(migrated);
      expect(statements.length).toBeGreaterThan(20);
      expect(statements.some((statement) => statement.startsWith('CREATE MATERIALIZED VIEW'))).toBe(true);
      expect(await schemaOf(cloned)).toEqual(statements);
      const versions = (store: ClickHouseEventStore) =>
        store.clickhouse.rows(
          'SELECT groupArray(version) AS versions FROM (SELECT version FROM schema_version ORDER BY version)',
          {},
          z.object({ versions: z.array(z.coerce.number()) }),
        );
      expect(await versions(cloned)).toEqual(await versions(migrated));
      expect((await versions(cloned))[0]?.versions.at(-1)).toBe(SCHEMA_VERSION);

      const event = eventBuilder('p-template');
      const rows = [
        event('page_view', Date.UTC(2026, 2, 1, 10), { user_id: 'u1', session_id: 's1' }),
        event('wallet_connected', Date.UTC(2026, 2, 1, 10, 5), {
          user_id: 'u1',
          session_id: 's1',
          wallet_address: '0x00000000000000000000000000000000000000a1',
        }),
      ];
      for (const store of [migrated, cloned]) await store.loadSegment(writeSegment(suite.dir, rows));
      const range = { fromMs: Date.UTC(2026, 2, 1), toMs: Date.UTC(2026, 2, 2) };
      const answers = async (store: ClickHouseEventStore) => ({
        funnel: await store.funnelCounts('p-template', range, {}),
        options: await store.filterOptions('p-template', range),
      });
      expect((await answers(cloned)).funnel).toMatchObject({ totalUsers: 1, haveConnectedWallet: 1 });
      expect(await answers(cloned)).toEqual(await answers(migrated));
    } finally {
      await migrated.close();
      await cloned.close();
    }
  });

  it('empties a finished test’s database to the template’s state for the next one, unless its tables changed', async () => {
    const url = `${suite.url}/pf_template_reused`;
    const rows = [eventBuilder('p-reused')('page_view', Date.UTC(2026, 2, 1), { id: 'gone', user_id: 'u1' })];
    const used = await templatedClickHouseStore(url);
    await used.loadSegment(writeSegment(suite.dir, rows));
    await used.close();
    expect(await emptiedForReuse(url)).toBe(true);
    const again = await templatedClickHouseStore(url);
    const altered = await templatedClickHouseStore(`${suite.url}/pf_template_altered`);
    try {
      const fresh = await templatedClickHouseStore(`${suite.url}/pf_template_fresh`);
      expect(await schemaOf(again)).toEqual(await schemaOf(fresh));
      await fresh.close();
      const held = z.object({ rows: z.coerce.number(), versions: z.coerce.number() });
      const [counts] = await again.clickhouse.rows(
        `SELECT sumIf(total_rows, name != 'schema_version') AS rows, sumIf(total_rows, name = 'schema_version') AS versions
           FROM system.tables WHERE database = currentDatabase()`,
        {},
        held,
      );
      expect(counts?.rows).toBe(0);
      expect(counts?.versions).toBeGreaterThan(0);
      await again.loadSegment(writeSegment(suite.dir, rows));
      expect((await again.projectEvents('p-reused')).map((row) => row.id)).toEqual(['gone']);

      await altered.loadSegment(writeSegment(suite.dir, rows));
      await altered.clickhouse.command('ALTER TABLE events ADD COLUMN test_only UInt8 DEFAULT 0');
      expect(await emptiedForReuse(`${suite.url}/pf_template_altered`)).toBe(false);
      expect(await altered.projectEvents('p-reused')).toHaveLength(1);
    } finally {
      await again.close();
      await altered.close();
    }
  });

  it('leaves a database that already exists to the store', async () => {
    const url = `${suite.url}/pf_template_existing`;
    const first = await templatedClickHouseStore(url);
    await first.loadSegment(
      writeSegment(suite.dir, [eventBuilder('p-kept')('page_view', Date.UTC(2026, 2, 1), { id: 'kept' })]),
    );
    await first.close();
    const again = await templatedClickHouseStore(url);
    try {
      expect((await again.projectEvents('p-kept')).map((row) => row.id)).toEqual(['kept']);
    } finally {
      await again.close();
    }
  });
});
