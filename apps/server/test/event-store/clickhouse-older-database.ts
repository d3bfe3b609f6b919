import { z } from 'zod';
import { connectClickHouse } from '../../src/modules/event-store/clickhouse/client.ts';
import { createEventWriter } from '../../src/modules/event-store/clickhouse/event-writer.ts';
import { migrate } from '../../src/modules/event-store/clickhouse/schema.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';

const TableName = z.object({ name: z.string() });

/**
 * The ClickHouse database at `url` as an earlier release left it: migrated up to schema `version` only,
 * then loaded by that release's writer (`load`). Answers the names of its tables, so that a test can show
 * that a later version's table is not there yet before the store starts on the database and upgrades it.
 */
export async function databaseAtVersion(
  url: string,
  version: number,
  load: (writer: Pick<EventStore, 'loadSegment'>) => Promise<void>,
): Promise<string[]> {
  const old = await connectClickHouse(url);
  try {
    await migrate(old, version);
    const writer = createEventWriter(old);
    await load(writer);
    await writer.close();
    const tables = await old.rows(
      'SELECT name FROM system.tables WHERE database = currentDatabase()',
      {},
      TableName,
    );
    return tables.map((row) => row.name);
  } finally {
    await old.close();
  }
}
