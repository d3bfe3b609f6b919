import type { LogEntry, LogWriter } from './log-writer.ts';

export type CommitResult = { accepted: number; duplicates: number };

type Waiter = {
  entry: LogEntry;
  resolve: (result: CommitResult) => void;
  reject: (error: unknown) => void;
};

export type GroupCommitOptions = {
  /** Where a group goes: the ingestion log (log-writer.ts). */
  log: Pick<LogWriter, 'append'>;
  /** How long the first request of a group waits for company before the group is written. */
  maxDelayMs?: number;
  /** A group with this many events is written at once. */
  maxEvents?: number;
  /**
   * Told of each entry once its group is durable, just before its request is answered, with which of
   * its events were new (the live streams send those).
   */
  onCommitted?(entry: LogEntry, isNew: readonly boolean[]): void;
};

export type GroupCommit = ReturnType<typeof createGroupCommit>;

/**
 * Group commit: the entries of concurrent requests are written with one fdatasync, and each request is
 * answered only after it. While one group is being written the next one gathers, so a slow write makes
 * the next group larger instead of queueing many small ones.
 */
export function createGroupCommit({
  log,
  maxDelayMs = 2,
  maxEvents = 5000,
  onCommitted,
}: GroupCommitOptions) {
  let waiting: Waiter[] = [];
  let waitingEvents = 0;
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;

  function schedule(): void {
    if (writing) return; // the running write starts the next group when it ends
    if (waitingEvents >= maxEvents) {
      if (timer) clearTimeout(timer);
      timer = undefined;
      void writeGroup();
    } else if (!timer) {
      timer = setTimeout(() => {
        timer = undefined;
        void writeGroup();
      }, maxDelayMs);
    }
  }

  async function writeGroup(): Promise<void> {
    if (writing || waiting.length === 0) return;
    const group = waiting;
    waiting = [];
    waitingEvents = 0;
    writing = commit(group);
    await writing;
    writing = undefined;
    // Whatever arrived during the write has waited long enough already.
    if (waiting.length > 0) void writeGroup();
  }

  async function commit(group: Waiter[]): Promise<void> {
    let isNew: boolean[][];
    try {
      isNew = await log.append(group.map((waiter) => waiter.entry));
    } catch (error) {
      for (const waiter of group) waiter.reject(error);
      return;
    }
    group.forEach((waiter, index) => {
      if (onCommitted) {
        try {
          onCommitted(waiter.entry, isNew[index] ?? []);
        } catch {
          // The live view is a courtesy: it never fails a request that is durable already.
        }
      }
      const accepted = (isNew[index] ?? []).filter(Boolean).length;
      waiter.resolve({ accepted, duplicates: waiter.entry.ids.length - accepted });
    });
  }

  return {
    /** Resolves once the entry's new events are durable (the others are known duplicates). */
    submit(entry: LogEntry): Promise<CommitResult> {
      if (entry.ids.length === 0) return Promise.resolve({ accepted: 0, duplicates: 0 });
      return new Promise<CommitResult>((resolve, reject) => {
        waiting.push({ entry, resolve, reject });
        waitingEvents += entry.ids.length;
        schedule();
      });
    },

    /** Writes everything still waiting; used before the log closes. */
    async drain(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = undefined;
      while (writing || waiting.length > 0) {
        if (writing) await writing;
        else await writeGroup();
      }
    },
  };
}
