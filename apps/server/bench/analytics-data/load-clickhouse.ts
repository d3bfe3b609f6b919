import { chmodSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '@clickhouse/client';
import type { DuckDBConnection } from '@duckdb/node-api';
import { connectClickHouse, parseClickHouseUrl } from '../../src/modules/event-store/clickhouse/client.ts';
import { mergeEveryTable } from '../../src/modules/event-store/clickhouse/schema.ts';
import { EVENT_COLUMNS } from '../../src/modules/event-store/event-row.ts';

/**
 * The same rows in the ClickHouse event store's `events`: DuckDB writes them to a Parquet file (times as
 * epoch ms, big numbers as text, so that no type is guessed), ClickHouse reads the file itself (the chdb
 * HTTP server runs on this machine) and converts each column to the store's type. One INSERT, which
 * ClickHouse splits over its insert threads: every part it leaves spans every project's whole time, which
 * the background merges leave as it is (5 parts of `events` at 10 M events) and FINAL would merge on every
 * read; so the load ends as schema version 23 leaves a stored database, every table merged into one part
 * (ADR 097), which FINAL reads as it is. The
 * insert of 10 M rows outlasts the store's own request timeout (2 minutes), so it goes through a client of
 * its own that waits up to an hour, as does the merge.
 */
export async function loadClickHouse(
  duck: DuckDBConnection,
  databaseUrl: string,
  dir: string,
): Promise<void> {
  const file = path.join(dir, 'events.parquet');
  const exported = EVENT_COLUMNS.map(({ name, kind }) => {
    if (kind === 'timestamp') return `epoch_ms(${name}) AS ${name}`;
    if (kind === 'hugeint') return `${name}::VARCHAR AS ${name}`;
    return name;
  }).join(', ');
  await duck.run(`COPY (SELECT ${exported} FROM events) TO '${file}' (FORMAT parquet)`);
  chmodSync(dir, 0o755);
  chmodSync(file, 0o644);
  const converted = EVENT_COLUMNS.map(({ name, kind, required }) => {
    if (kind === 'timestamp') return `fromUnixTimestamp64Milli(${name}, 'UTC') AS ${name}`;
    if (kind === 'hugeint') return `CAST(${name} AS ${required ? 'Int128' : 'Nullable(Int128)'}) AS ${name}`;
    return name;
  }).join(', ');
  const { serverUrl, database, username, password } = parseClickHouseUrl(databaseUrl);
  const loader = createClient({ url: serverUrl, database, username, password, request_timeout: 3_600_000 });
  try {
    await loader.command({
      query: `INSERT INTO events SELECT ${converted} FROM file({file:String}, Parquet)`,
      query_params: { file },
      clickhouse_settings: { wait_end_of_query: 1 },
    });
  } finally {
    await loader.close();
  }
  const merger = await connectClickHouse(databaseUrl, { requestTimeoutMs: 3_600_000 });
  try {
    await mergeEveryTable(merger);
  } finally {
    await merger.close();
  }
}
