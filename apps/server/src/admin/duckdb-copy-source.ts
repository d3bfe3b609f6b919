import { createDuckDbEventStore } from '../modules/event-store/duckdb/duckdb-event-store.ts';
import { EVENT_COLUMNS, type EventRow } from '../modules/event-store/event-row.ts';
import { AdminError } from './admin-error.ts';
import type { CopySource, Slice } from './copy-events.ts';

/** Times as epoch ms and BIGINT columns as doubles, as `EventRow` types them (hugeint stays bigint). */
const SELECT_LIST = EVENT_COLUMNS.map(({ name, kind }) => {
  if (kind === 'timestamp') return `epoch_ms(${name})::DOUBLE AS ${name}`;
  if (kind === 'bigint') return `${name}::DOUBLE AS ${name}`;
  return name;
}).join(', ');

/**
 * The embedded DuckDB event store as the source of `copy-events`. DuckDB lets one process open a file:
 * while a server uses it, the copy reads a copy of it (docs/scaling.md).
 */
export async function openDuckDbCopySource(file: string): Promise<CopySource & { close(): Promise<void> }> {
  let store: Awaited<ReturnType<typeof createDuckDbEventStore>>;
  try {
    store = await createDuckDbEventStore({ file, readers: 1 });
  } catch (error) {
    if (/Could not set lock on file/i.test(String(error))) {
      throw new AdminError(
        `${file} is in use by a running Polyflow server (DuckDB lets one process open it). Stop the server, or copy from a copy of the file taken while it was stopped: --from FILE.`,
      );
    }
    throw error;
  }
  const connection = await store.connect();
  return {
    async slices(): Promise<Slice[]> {
      const reader = await connection.runAndReadAll(
        `SELECT project_id, (epoch_ms(date_trunc('day', received_at)))::DOUBLE AS day_ms,
                count(*)::DOUBLE AS events, epoch_ms(max(received_at))::DOUBLE AS last_received_ms
           FROM events GROUP BY ALL ORDER BY project_id, day_ms`,
      );
      return reader.getRowObjectsJS().map((row) => ({
        projectId: String(row.project_id),
        dayMs: Number(row.day_ms),
        events: Number(row.events),
        lastReceivedMs: Number(row.last_received_ms),
      }));
    },
    async rows(projectId: string, fromMs: number, toMs: number): Promise<EventRow[]> {
      const reader = await connection.runAndReadAll(
        `SELECT ${SELECT_LIST} FROM events
          WHERE project_id = $project AND received_at >= epoch_ms($from::BIGINT) AND received_at < epoch_ms($to::BIGINT)
          ORDER BY received_at, id`,
        { project: projectId, from: fromMs, to: toMs },
      );
      return reader.getRowObjectsJS() as EventRow[];
    },
    async close() {
      connection.closeSync();
      await store.close();
    },
  };
}
