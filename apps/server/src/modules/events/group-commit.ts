import type { EventRow } from './event-row.ts';
import type { EventStore } from './store.ts';

export type CommitResult = { accepted: number; duplicates: number };

type Waiter = {
  rows: readonly EventRow[];
  resolve: (result: CommitResult) => void;
  reject: (error: unknown) => void;
};

export type GroupCommitOptions = {
  /** Where a group goes: the event store itself, or the ingestion log (log-writer.ts). */
  store: Pick<EventStore, 'insertBatch'>;
  /** How long the first request of a group waits for company before the group is written. */
  maxDelayMs?: number;
  /** A group this large is written at once. */
  maxRows?: number;
};

export type GroupCommit = ReturnType<typeof createGroupCommit>;

/**
 * Group commit: rows of concurrent requests are written in one transaction, and each request is
 * answered only after that transaction committed. While one group is being written the next one
 * gathers, so a slow commit makes the next group larger instead of queueing many small commits.
 */
export function createGroupCommit({ store, maxDelayMs = 2, maxRows = 5000 }: GroupCommitOptions) {
  let waiting: Waiter[] = [];
  let waitingRows = 0;
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;

  function schedule(): void {
    if (writing) return; // the running write starts the next group when it ends
    if (waitingRows >= maxRows) {
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
    waitingRows = 0;
    writing = commit(group);
    await writing;
    writing = undefined;
    // Whatever arrived during the write has waited long enough already.
    if (waiting.length > 0) void writeGroup();
  }

  async function commit(group: Waiter[]): Promise<void> {
    // Two requests in one group can carry the same event (a retry racing its original): keep the first.
    const seen = new Set<string>();
    const unique: EventRow[] = [];
    const isFirst: boolean[][] = group.map(({ rows }) =>
      rows.map((row) => {
        const key = `${row.project_id}\n${row.id}`;
        if (seen.has(key)) return false;
        seen.add(key);
        unique.push(row);
        return true;
      }),
    );
    let isNew: boolean[];
    try {
      isNew = await store.insertBatch(unique);
    } catch (error) {
      for (const waiter of group) waiter.reject(error);
      return;
    }
    let next = 0;
    group.forEach((waiter, index) => {
      let accepted = 0;
      for (const first of isFirst[index] ?? []) {
        if (first && isNew[next++]) accepted++;
      }
      waiter.resolve({ accepted, duplicates: waiter.rows.length - accepted });
    });
  }

  return {
    /** Resolves once the rows are durable (or known duplicates). */
    submit(rows: readonly EventRow[]): Promise<CommitResult> {
      if (rows.length === 0) return Promise.resolve({ accepted: 0, duplicates: 0 });
      return new Promise<CommitResult>((resolve, reject) => {
        waiting.push({ rows, resolve, reject });
        waitingRows += rows.length;
        schedule();
      });
    },

    /** Writes everything still waiting; used before the store closes. */
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
