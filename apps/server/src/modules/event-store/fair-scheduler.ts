/**
 * Turns at a bounded number of slots, fair between projects: what the DuckDB adapter's reader pool (a slot
 * per connection, ADR 034, 047) and the ClickHouse adapter's queries in flight (ADR 091) both run their
 * questions through. Work queues per project and projects take turns: a freed slot goes to the waiting
 * project that was served least recently (never, for one with nothing running), so however many questions
 * one project asks at once, another project's question waits for at most one of its questions per slot,
 * not for all of them. Long reads (an export's windows, `isLong`), the lowest class, hold at most
 * `maxLong` slots at once, all projects together: the other slots are left to the dashboards' questions,
 * which never wait for more long reads than that. A project alone still uses every slot.
 */
export type FairScheduler = {
  run<T>(projectId: string, work: () => Promise<T>, isLong?: boolean): Promise<T>;
  /** Work running and waiting (the tests' and the metrics' view). */
  readonly load: () => { running: number; longRunning: number; waiting: number };
};

export function createFairScheduler(options: { slots: number; maxLong: number }): FairScheduler {
  const slots = Math.max(1, options.slots);
  const maxLong = Math.max(1, Math.min(options.maxLong, slots));
  /** Per project, its work waiting for a slot, in the order asked. */
  const waiting = new Map<string, { start: () => void; isLong: boolean }[]>();
  /**
   * Per project with work running or waiting: how much runs, and when it was last given a slot (a count of
   * grants). Forgotten when it has none left, so it holds the active projects only.
   */
  const active = new Map<string, { running: number; lastTurn: number }>();
  let turns = 0;
  let running = 0;
  let longRunning = 0;

  function granted(projectId: string, isLong: boolean): void {
    const project = active.get(projectId);
    turns++;
    running++;
    if (isLong) longRunning++;
    if (project) {
      project.running++;
      project.lastTurn = turns;
    } else active.set(projectId, { running: 1, lastTurn: turns });
  }

  function finished(projectId: string, isLong: boolean): void {
    running--;
    if (isLong) longRunning--;
    const project = active.get(projectId);
    if (!project) return;
    project.running--;
    if (project.running === 0 && !waiting.has(projectId)) active.delete(projectId);
  }

  function acquire(projectId: string, isLong: boolean): Promise<void> | undefined {
    if (running < slots && (!isLong || longRunning < maxLong)) {
      granted(projectId, isLong);
      return undefined;
    }
    return new Promise((start) => {
      const queue = waiting.get(projectId);
      if (queue) queue.push({ start, isLong });
      else waiting.set(projectId, [{ start, isLong }]);
    });
  }

  /** Gives free slots to the waiting projects served least recently (first such in the order they began to wait). */
  function grantNext(): void {
    while (running < slots) {
      // A long read waits while `maxLong` run; the work behind it in its project's queue does not.
      let next: string | undefined;
      let nextIndex = -1;
      let nextTurn = Number.POSITIVE_INFINITY;
      for (const [projectId, queue] of waiting) {
        const lastTurn = active.get(projectId)?.lastTurn ?? 0;
        if (lastTurn >= nextTurn) continue;
        const index = longRunning < maxLong ? 0 : queue.findIndex((entry) => !entry.isLong);
        if (index < 0) continue;
        next = projectId;
        nextIndex = index;
        nextTurn = lastTurn;
      }
      const queue = next === undefined ? undefined : waiting.get(next);
      if (next === undefined || !queue) return;
      const [entry] = queue.splice(nextIndex, 1);
      if (queue.length === 0) waiting.delete(next);
      if (!entry) return;
      granted(next, entry.isLong);
      entry.start();
    }
  }

  return {
    async run(projectId, work, isLong = false) {
      await acquire(projectId, isLong);
      try {
        return await work();
      } finally {
        finished(projectId, isLong);
        grantNext();
      }
    },
    load: () => ({
      running,
      longRunning,
      waiting: [...waiting.values()].reduce((sum, queue) => sum + queue.length, 0),
    }),
  };
}
