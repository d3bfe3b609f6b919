import { createReadStream } from 'node:fs';
import type { ClickHouse } from './client.ts';

/**
 * A copy file (`npm run admin -- copy-events`, ADR 022) inserted into `events` as it is: one JSON array
 * per line, the values in `events`' column order (event-row.ts), times as `YYYY-MM-DD hh:mm:ss.mmm` UTC
 * text, big numbers as decimal text, null where a column has no value. That is ClickHouse's
 * JSONCompactEachRow for this table: no view, no mapping, and the server parses the file in its own
 * threads while the Node thread only streams it. The events' sort key is (project_id, ts, id) in a
 * ReplacingMergeTree read with FINAL, so a file inserted twice (a copy resumed after a crash) leaves each
 * event once. `optimize_on_insert = 0` as for every load (event-writer.ts): no collapsing at insert time.
 */
export async function loadCopiedRows(clickhouse: ClickHouse, file: string): Promise<void> {
  const { stream } = await clickhouse.client.exec({
    query: 'INSERT INTO events FORMAT JSONCompactEachRow',
    values: createReadStream(file),
    clickhouse_settings: { input_format_allow_errors_num: '0', optimize_on_insert: 0 },
  });
  stream.resume();
  await new Promise<void>((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('error', reject);
  });
}
