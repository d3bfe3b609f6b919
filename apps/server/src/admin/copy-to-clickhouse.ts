import path from 'node:path';
import type { Config } from '../config.ts';
import { createClickHouseEventStore } from '../modules/event-store/clickhouse/clickhouse-event-store.ts';
import { AdminError } from './admin-error.ts';
import { copyEvents, describeCopy } from './copy-events.ts';
import { openDuckDbCopySource } from './duckdb-copy-source.ts';
import { createProgress } from './progress.ts';

/** The ClickHouse URL without its password: how the checkpoint names the target. */
export function targetName(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

/**
 * `copy-events --to-clickhouse [--from FILE] [--load-events N]`: DATA_DIR's DuckDB event store (or a copy)
 * into CLICKHOUSE_URL.
 */
export async function copyEventsToClickHouse(
  config: Config,
  options: {
    from?: string;
    loadEvents?: number;
    output?: { isTTY?: boolean; write(text: string): unknown };
  },
): Promise<string> {
  if (!config.clickhouseUrl) {
    throw new AdminError(
      'Set CLICKHOUSE_URL (http://user:password@host:8123/database) to the ClickHouse to copy into.',
    );
  }
  const file = path.resolve(options.from ?? path.join(config.dataDir, 'events.duckdb'));
  const source = await openDuckDbCopySource(file);
  try {
    const target = await createClickHouseEventStore(config.clickhouseUrl);
    try {
      const report = await copyEvents({
        source,
        target,
        checkpointFile: path.join(config.dataDir, 'copy-events.checkpoint.json'),
        targetName: targetName(config.clickhouseUrl),
        workDir: path.join(config.dataDir, 'copy-events'),
        progress: createProgress(options.output ?? process.stderr),
        loadEvents: options.loadEvents,
      });
      return describeCopy(report);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
