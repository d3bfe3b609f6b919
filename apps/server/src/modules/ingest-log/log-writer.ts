import type { EventRow } from '../event-store/event-row.ts';
import { eventKeysOfRecord } from '../event-store/log-records.ts';
import { createIngestLog } from './ingest-log.ts';
import { createQuarantine, type QuarantineOptions } from './quarantine.ts';
import { createRecentIds } from './recent-ids.ts';

/**
 * What group commit appends for one request: its project and event ids, and its record lines for the
 * events that are new: records of event-store/log-records.ts, each a line ending in "\n".
 */
export type LogEntry = {
  project: string;
  /** Event ids, unique per project. */
  ids: readonly string[];
  /** The entry's lines without the events whose index is in `skip` (known already); '' for none. */
  encode(skip: ReadonlySet<number>): string;
  /** The entry's events as stored rows, in `ids` order (built only for a project someone watches live). */
  rows(): readonly EventRow[];
};

export type LogWriterOptions = {
  /** `DATA_DIR/ingest-log`. */
  dir: string;
  /**
   * Store every record of a closed segment file in the event store, skipping stored ids
   * (EventStore.loadSegment): the store reads the file itself.
   */
  load(segmentFile: string): Promise<void>;
  /** How often the background loader looks at the log. */
  loadIntervalMs?: number;
  /**
   * A look loads the log once this many events are waiting, or once `maxLoadDelayMs` have passed since
   * the previous load. Under heavy ingestion the loads are then large: a DuckDB transaction of more than
   * a row group (122,880 rows) writes its rows straight into the file, one of fewer through the WAL and
   * again at the next checkpoint, which cost 60 µs per event in loads of 70,000 against 34 in loads of
   * 140,000 (ADR 023). Counted in events, not bytes: rows records take about 720 bytes per event in the
   * bench's mix, so the 48 MB this used to be made loads of 70,000. A quiet project's events still go
   * in at the next look.
   */
  loadEvents?: number;
  maxLoadDelayMs?: number;
  /**
   * When at least a fifth of `loadEvents` arrived within `maxLoadDelayMs` (a heavy stream: 10,000
   * events/s and more by default), the look waits for `loadEvents` up to this long instead (ADR 034):
   * loads of 60,000 events cost 39–41 µs of CPU per event against 27–30 for 140,000 (`npm run
   * bench:load`, back to back), so at 20,000 events/s loads every 3 s kept the loader behind. Queryable
   * after at most this long under heavy ingestion, `maxLoadDelayMs` otherwise.
   */
  maxHeavyLoadDelayMs?: number;
  onLoadError?(error: unknown): void;
  /**
   * Whether a failed `load` failed on a record's content rather than on the store: the segment's
   * other records are then loaded and the bad ones quarantined (quarantine.ts).
   */
  isRecordError?: QuarantineOptions['isRecordError'];
  onQuarantined?: QuarantineOptions['onQuarantined'];
};

/**
 * Acknowledge on the log, load in the background. `append` (what group commit calls) writes the
 * group's new events to the ingestion log and resolves after its fdatasync; every `loadIntervalMs`
 * the loader closes the segment being written and loads each closed segment into the event store,
 * then deletes it. After a crash the segments still on disk are loaded again; the store's primary key
 * makes that idempotent. See docs/decisions/003-ingestion-log.md.
 */
export function createLogWriter({
  dir,
  load,
  loadIntervalMs = 250,
  loadEvents = 150_000,
  maxLoadDelayMs = 3_000,
  maxHeavyLoadDelayMs = 10_000,
  onLoadError,
  isRecordError = () => false,
  onQuarantined,
}: LogWriterOptions) {
  const log = createIngestLog(dir);
  const quarantine = createQuarantine({ dir, isRecordError, onQuarantined });
  const recent = createRecentIds();
  // Events left in the log by the previous run were acknowledged: a retry of one is a duplicate.
  for (const name of log.closedSegments()) {
    for (const line of log.readSync(name).split('\n')) {
      if (line) for (const [project, id] of eventKeysOfRecord(line)) recent.add(project, id);
    }
  }

  let loading: Promise<void> | undefined;
  let lastLoadAt = 0;
  /** Events appended since the last rotation: what the next load will take from the current segment. */
  let waitingEvents = 0;
  async function loadClosedSegments(): Promise<void> {
    lastLoadAt = Date.now();
    waitingEvents = 0;
    await log.rotate();
    for (const name of log.closedSegments()) {
      try {
        await load(log.pathOf(name));
      } catch (error) {
        if (!quarantine.isRecordError(error)) throw error;
        await quarantine.loadAroundBadRecords(log.pathOf(name), load);
      }
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
    if (log.pendingBytes() === 0) return;
    const waited = Date.now() - lastLoadAt;
    const isHeavy = waitingEvents >= loadEvents / 5;
    const isDue = waitingEvents >= loadEvents || waited >= (isHeavy ? maxHeavyLoadDelayMs : maxLoadDelayMs);
    if (!isDue) return;
    loadOnce().catch((error: unknown) => (onLoadError ?? console.error)(error));
  }, loadIntervalMs);
  timer.unref();

  return {
    /**
     * Per entry and key, whether the event is new: not acknowledged recently and not earlier in this
     * call (a retry racing its original). Resolves once the new ones are durable. One call at a time.
     */
    async append(entries: readonly LogEntry[]): Promise<boolean[][]> {
      // Each new id is remembered at once, so that a retry later in this call is a duplicate, and
      // forgotten again if the append fails: an id remembered for a failed append would turn the retry
      // into a "duplicate". Safe because calls do not overlap: the next one sees this one's outcome.
      const added: [project: string, id: string][] = [];
      const records: string[] = [];
      const owners: string[] = [];
      const isNew = entries.map(({ project, ids, encode }) => {
        const skip = new Set<number>();
        const flags = ids.map((id, index) => {
          if (recent.has(project, id)) {
            skip.add(index);
            return false;
          }
          recent.add(project, id);
          added.push([project, id]);
          return true;
        });
        if (skip.size < ids.length) {
          records.push(encode(skip));
          owners.push(project);
        }
        return flags;
      });
      if (records.length === 0) return isNew;
      try {
        await log.append(records, owners);
      } catch (error) {
        for (const [project, id] of added) recent.delete(project, id);
        throw error;
      }
      waitingEvents += added.length;
      return isNew;
    },

    /** Bytes acknowledged and not loaded yet. */
    pendingBytes: () => log.pendingBytes(),
    /** Of those, the bytes of one project's events (those acknowledged since this process started). */
    pendingBytesOf: (project: string) => log.pendingBytesOf(project),
    /** How many projects have events acknowledged and not loaded yet (since this process started). */
    pendingProjects: () => log.pendingProjects(),

    /** Milliseconds the oldest acknowledged event not yet loaded has waited; 0 when none waits. */
    lagMs: () => {
      const oldest = log.oldestPendingAt();
      return oldest === undefined ? 0 : Math.max(0, Date.now() - oldest);
    },
    /** When the oldest event acknowledged and not loaded yet was acknowledged (epoch ms), if any. */
    oldestPendingAt: () => log.oldestPendingAt(),

    /** Records the loader could not load, kept in `quarantine.file`. */
    quarantined: () => ({ count: quarantine.count(), file: quarantine.file }),

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
