import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { connectClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import { migrate, SCHEMA_VERSION } from '../../src/modules/event-store/clickhouse/schema.ts';
import { batchRecord, rowsRecord } from '../../src/modules/event-store/log-records.ts';
import { useChdbSuite } from './chdb-suite.ts';
import { eventBuilder } from './event-builder.ts';

const suite = useChdbSuite('polyflow-ch-release-', 60_000);
const T0 = Date.UTC(2026, 10, 1);

/**
 * ClickHouse schema 14 (ADR 066): a database at version 13 gets the `release` column's statements (the load
 * views dropped first, the segment tables widened, the request tuple of batch records with `release`, the
 * views made again), and both kinds of records then load their release.
 */
describe('ClickHouse release column (schema 14)', () => {
  it('upgrades a version 13 database; batch and rows records load their release', {
    timeout: 60_000,
  }, async () => {
    const url = `${suite.url}/pf_release_v13`;
    const old = await connectClickHouse(url);
    await migrate(old, 13);
    await old.close();
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(14);

    const store = await createClickHouseEventStore(url);
    try {
      const request = {
        project: 'p-release',
        origin: 'app.example.com',
        receivedAt: T0,
        sdk: 'polyflow/2.0.0',
        country: null,
        browser: null,
        os: null,
        device: null,
        release: '1.4.2',
      };
      const wire = { id: 'batch-1', type: 'page_view', ts: T0, userId: 'u1', sessionId: 's1', path: '/' };
      const row = { ...eventBuilder('p-release')('page_view', T0 + 1), id: 'row-1', release: '1.4.3' };
      const file = path.join(suite.dir, 'segment-release');
      writeFileSync(file, `${batchRecord(request, [wire])}\n${rowsRecord(row)}\n`);
      await store.loadSegment(file);
      const stored = await store.projectEvents('p-release');
      expect(stored.map((event) => [event.id, event.release]).sort()).toEqual([
        ['batch-1', '1.4.2'],
        ['row-1', '1.4.3'],
      ]);
    } finally {
      await store.close();
    }
  });
});
