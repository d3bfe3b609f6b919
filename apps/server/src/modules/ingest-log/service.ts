import { AppError } from '../../errors.ts';
import { enableOptimizingCompiler } from '../../lib/optimizing-compiler.ts';
import type { EventRow } from '../event-store/event-row.ts';
import type { EventWriter, IngestionQuestions } from '../event-store/event-store.ts';
import { type CommitResult, createGroupCommit, type GroupCommitOptions } from './group-commit.ts';
import { createLogWriter, type LogEntry, type LogWriterOptions } from './log-writer.ts';

/**
 * Who is handed acknowledged events at once (the live streams, modules/live, which subscribe with
 * `onCommitted`): asked per committed entry whether its project is watched, then handed the entry's new rows.
 */
export type CommittedEvents = {
  isWatched(projectId: string): boolean;
  publish(projectId: string, rows: readonly EventRow[]): void;
};

export type EventServiceDeps = {
  /** The event store: the loader writes through it; the deletes and the legacy status update read it. */
  store: Pick<
    EventWriter,
    'loadSegment' | 'isRecordError' | 'deleteProjectEvents' | 'deleteWalletEvents' | 'deleteUserEvents'
  > &
    Pick<IngestionQuestions, 'findTxEvent'>;
  /** Told of every commit (the ingestion rate on /metrics). */
  metrics?: { committed(result: CommitResult): void };
  groupCommit?: Omit<GroupCommitOptions, 'log' | 'onCommitted'>;
  /**
   * Acknowledge on the ingestion log in this directory (`DATA_DIR/ingest-log`) and load the store in
   * the background (ADR 003).
   */
  log: {
    dir: string;
    loadIntervalMs?: number;
    maxLoadDelayMs?: number;
    onLoadError?(error: unknown): void;
    onQuarantined?: LogWriterOptions['onQuarantined'];
    maxBacklogBytes?: number;
  };
};

export type EventService = ReturnType<typeof createEventService>;
export type BacklogState = 'clear' | 'over' | 'full';

/** About half a million events acknowledged but not loaded: beyond it, clients are asked to come back. */
const DEFAULT_MAX_BACKLOG_BYTES = 256 * 1024 * 1024;

/** The back-pressure refusal (ADR 034): the client keeps its events and retries. */
export function ingestionBacklog(): AppError {
  return new AppError(
    503,
    'INGESTION_BACKLOG',
    'Events are arriving faster than they can be stored; retry in a few seconds.',
    undefined,
    5,
  );
}

/**
 * The ingestion log and its loader: group commit of acknowledged entries, the background load into the
 * event store, its backlog (back-pressure), and the deletes that must see what is not loaded yet.
 * Admission, the batch's checks and enrichment and the integration card (modules/ingestion)
 * and the live streams (modules/live) are built with it; it is built with the event store alone (ADR 075).
 */
export function createEventService(deps: EventServiceDeps) {
  const log = createLogWriter({
    ...deps.log,
    load: (file) => {
      // A backlog left by the last run is loaded before any request: optimized, as loads always are.
      enableOptimizingCompiler();
      return deps.store.loadSegment(file);
    },
    isRecordError: (error) => deps.store.isRecordError(error),
  });
  const maxBacklogBytes = deps.log.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG_BYTES;
  let committed: CommittedEvents | undefined;
  const writer = createGroupCommit({
    log,
    ...deps.groupCommit,
    // Straight from the commit, not from the loader: the live view must not wait for the store's 3 s.
    onCommitted(entry, isNew) {
      if (!committed?.isWatched(entry.project)) return;
      const rows = entry.rows();
      committed.publish(entry.project, isNew.every(Boolean) ? rows : rows.filter((_, index) => isNew[index]));
    },
  });

  /** Everything acknowledged so far, readable in the store. */
  async function flush(): Promise<void> {
    await writer.drain();
    await log.flush();
  }

  return {
    /**
     * The one subscriber handed each commit's new events, once durable and before its request is answered
     * (the live streams, modules/live). The log knows nothing of who it is.
     */
    onCommitted(subscriber: CommittedEvents): void {
      committed = subscriber;
    },

    /** Answers once the entry is durable in the log (group commit); counted on /metrics. */
    async submit(entry: LogEntry): Promise<CommitResult> {
      const result = await writer.submit(entry);
      deps.metrics?.committed(result);
      return result;
    },

    /**
     * Back-pressure (ADR 007, shared fairly since ADR 034), from the bytes the ingestion log holds not yet
     * loaded into the store: `clear` up to `maxBacklogBytes`; beyond it `over`, when a project that holds
     * at least its share of that limit (the limit divided among the projects waiting) is refused, so that
     * one project's flood does not refuse the others; `full` beyond twice the limit, when every request
     * is. A refused client keeps its batches and retries (the SDK does, with back-off) instead of the log
     * growing without bound.
     */
    backlog(): BacklogState {
      const pending = log.pendingBytes();
      if (pending <= maxBacklogBytes) return 'clear';
      return pending > 2 * maxBacklogBytes ? 'full' : 'over';
    },

    /** While the backlog is `over`: whether this project holds its share of the limit or more. */
    isOverShare(projectId: string): boolean {
      return log.pendingBytesOf(projectId) * Math.max(1, log.pendingProjects()) >= maxBacklogBytes;
    },

    /** Bytes acknowledged in the ingestion log and not loaded yet (metrics). */
    backlogBytes: (): number => log.pendingBytes(),

    /** Seconds the oldest acknowledged event not loaded yet may have waited (metrics). */
    loaderLagSeconds: (): number => log.lagMs() / 1000,

    /** For the health check: what waits in the ingestion log, since when, and what was set aside. */
    loaderState(): { pendingBytes: number; oldestPendingAt: number | undefined; quarantined: number } {
      return {
        pendingBytes: log.pendingBytes(),
        oldestPendingAt: log.oldestPendingAt(),
        quarantined: log.quarantined().count,
      };
    },

    // Reads of what was just ingested (the published SDK updates a transaction it sent a moment ago).
    async findTxEvent(projectId: string, id: string) {
      await flush();
      return deps.store.findTxEvent(projectId, id);
    },

    /** Resolves once every acknowledged event is in the store (tests; reads of fresh events). */
    flush,

    /** A deleted project's events, those acknowledged but not loaded yet included. */
    async deleteProjectEvents(projectId: string): Promise<void> {
      await flush();
      await deps.store.deleteProjectEvents(projectId);
    },

    /**
     * A forgotten wallet's events (a data-subject request), those acknowledged but not loaded yet
     * included; answers how many were deleted.
     */
    async deleteWalletEvents(projectId: string, wallet: string): Promise<number> {
      await flush();
      return deps.store.deleteWalletEvents(projectId, wallet);
    },

    /** A forgotten SDK user's events, like `deleteWalletEvents`. */
    async deleteUserEvents(projectId: string, userId: string): Promise<number> {
      await flush();
      return deps.store.deleteUserEvents(projectId, userId);
    },

    /** Answers every waiting request and loads the whole log into the store (which stays open). */
    async close(): Promise<void> {
      await writer.drain();
      await log.close();
    },
  };
}
