import { withIncidentId } from '../incidents/incident-column.ts';
import { rowToJson } from './duckdb/rows-json.ts';
import type { EventRow } from './event-row.ts';
import { createIngestLog } from './ingest-log.ts';
import { createRecentIds, eventKey } from './recent-ids.ts';

export type LogWriterOptions = {
  /** `DATA_DIR/ingest-log`. */
  dir: string;
  /** Stores a JSON array of rows (the log's records) in the event store, skipping stored ids. */
  load(jsonRows: string): Promise<void>;
  /** How often the background loader moves the log into the event store. */
  loadIntervalMs?: number;
  onLoadError?(error: unknown): void;
};

/** A record starts with the two key columns (rowToJson writes columns in table order, never null). */
const KEY_PREFIX = /^\{"project_id":("(?:[^"\\]|\\.)*"),"id":("(?:[^"\\]|\\.)*")/;

/**
 * Acknowledge on the log, load in the background. `insertBatch` (what group commit calls) appends
 * the group's new rows to the ingestion log and resolves after its fdatasync; every `loadIntervalMs`
 * the loader closes the segment being written and loads each closed segment into the event store
 * in one statement, then deletes it. After a crash the segments still on disk are loaded again; the
 * store's primary key makes that idempotent. See docs/decisions/003-ingestion-log.md.
 */
export function createLogWriter({ dir, load, loadIntervalMs = 250, onLoadError }: LogWriterOptions) {
  const log = createIngestLog(dir);
  const recent = createRecentIds();
  // Rows left in the log by the previous run were acknowledged: a retry of one is a duplicate.
  for (const name of log.closedSegments()) {
    for (const line of log.readSync(name).split('\n')) {
      const match = KEY_PREFIX.exec(line);
      if (match) recent.add(eventKey(JSON.parse(match[1] as string), JSON.parse(match[2] as string)));
    }
  }

  let loading: Promise<void> | undefined;
  async function loadClosedSegments(): Promise<void> {
    await log.rotate();
    for (const name of log.closedSegments()) {
      const text = await log.read(name);
      // Records are single-line JSON objects (JSON.stringify escapes newlines inside strings).
      if (text.length > 0) await load(`[${text.slice(0, -1).replaceAll('\n', ',')}]`);
      await log.remove(name);
    }
  }
  /** One load at a time; a caller arriving during a load shares it. */
  function loadOnce(): Promise<void> {
    loading ??= loadClosedSegments().finally(() => {
      loading = undefined;
    });
    return loading;
  }

  const timer = setInterval(() => {
    loadOnce().catch((error: unknown) => (onLoadError ?? console.error)(error));
  }, loadIntervalMs);
  timer.unref();

  return {
    /** Per row, whether it was new; resolves once the new ones are durable in the log. One call at a time. */
    async insertBatch(rows: readonly EventRow[]): Promise<boolean[]> {
      const isNew = rows.map((row) => !recent.has(eventKey(row.project_id, row.id)));
      let records = '';
      rows.forEach((row, index) => {
        if (isNew[index]) records += `${rowToJson(withIncidentId(row))}\n`;
      });
      if (records.length === 0) return isNew;
      await log.append(records);
      // Only once durable: a key remembered for a failed append would turn the retry into a "duplicate".
      rows.forEach((row, index) => {
        if (isNew[index]) recent.add(eventKey(row.project_id, row.id));
      });
      return isNew;
    },

    /** Resolves once everything acknowledged before the call is in the event store. */
    async flush(): Promise<void> {
      // A load already running may have rotated before the latest acknowledgements: run one more.
      await loading?.catch(() => undefined);
      await loadOnce();
    },

    /** Loads what is left and closes the log; nothing may be appended afterwards. */
    async close(): Promise<void> {
      clearInterval(timer);
      await loading?.catch(() => undefined);
      await log.close();
      await loadOnce();
    },
  };
}

export type LogWriter = ReturnType<typeof createLogWriter>;
