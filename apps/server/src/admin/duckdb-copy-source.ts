import { createDuckDbEventStore } from '../modules/event-store/duckdb/duckdb-event-store.ts';
import { EVENT_COLUMNS } from '../modules/event-store/event-row.ts';
import { AdminError } from './admin-error.ts';
import type { CopySource, Slice } from './copy-events.ts';

const DAY_MS = 86_400_000;

/**
 * A copy file's line (copy-events.ts): the row as a JSON array in column order, times as UTC text to the
 * millisecond (what the stores keep), big numbers as decimal text (JSON numbers stop at 2^53).
 */
const COPY_LINE = `json_array(${EVENT_COLUMNS.map(({ name, kind }) => {
  if (kind === 'timestamp') return `strftime(${name}, '%Y-%m-%d %H:%M:%S.%g')`;
  if (kind === 'hugeint') return `${name}::VARCHAR`;
  return name;
}).join(', ')})`;

/** Each line as it is: no quoting, no header, a delimiter no JSON text holds unescaped. */
const LINES_AS_THEY_ARE = `(FORMAT CSV, HEADER false, QUOTE '', ESCAPE '', DELIMITER '\x01')`;

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The embedded DuckDB event store as the source of `copy-events`. DuckDB lets one process open a file:
 * while a server uses it, the copy reads a copy of it (docs/scaling.md). DuckDB writes each copy file
 * itself, in its own threads (`COPY … TO`): no row passes through JavaScript.
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

    async exportSlices(slices: readonly Slice[], target: string): Promise<number> {
      const first = slices[0];
      const last = slices.at(-1);
      if (!first || !last) return 0;
      await connection.run('CREATE OR REPLACE TEMP TABLE copy_slices (project_id VARCHAR, day TIMESTAMP)');
      await connection.run(
        `INSERT INTO copy_slices VALUES ${slices
          .map((slice) => `(${literal(slice.projectId)}, make_timestamp(${slice.dayMs * 1000}::BIGINT))`)
          .join(', ')}`,
      );
      const fromMs = slices.reduce((least, slice) => Math.min(least, slice.dayMs), first.dayMs);
      const toMs = slices.reduce((most, slice) => Math.max(most, slice.dayMs), first.dayMs) + DAY_MS;
      // The project and arrival bounds let DuckDB skip row groups by their zone maps before the join.
      const reader = await connection.runAndReadAll(
        `COPY (SELECT ${COPY_LINE} FROM events
                 SEMI JOIN copy_slices
                   ON events.project_id = copy_slices.project_id
                  AND date_trunc('day', events.received_at) = copy_slices.day
                WHERE events.project_id BETWEEN ${literal(first.projectId)} AND ${literal(last.projectId)}
                  AND events.received_at >= make_timestamp(${fromMs * 1000}::BIGINT)
                  AND events.received_at < make_timestamp(${toMs * 1000}::BIGINT))
           TO ${literal(target)} ${LINES_AS_THEY_ARE}`,
      );
      return Number(reader.getRows()[0]?.[0] ?? 0);
    },

    async close() {
      connection.closeSync();
      await store.close();
    },
  };
}
