import v8 from 'node:v8';
import type { FastifyInstance } from 'fastify';

/** How often the server looks whether requests arrived: a look that saw none finds it idle. */
const CHECK_EVERY_MS = 5_000;
/** The young generation once V8 has shrunk it (1 MB); traffic grows it to 64 MB (`--max-semi-space-size=32`). */
const SHRUNK_YOUNG_GENERATION_BYTES = 4 * 1024 * 1024;
/** Collections per quiet spell, one a look, until the young generation has shrunk. */
const MAX_COLLECTIONS = 4;

type Collect = () => void;

/** The young generation's committed size (V8's `new_space`), in bytes. */
export function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Node's `gc` (`--expose-gc`) as one compacting full collection: the pages that start-up or a burst left
 * partly used are moved together and given back, not only the dead objects swept (docs/decisions/089).
 */
export function compactingCollection(
  gc: Collect | undefined = (globalThis as { gc?: Collect }).gc,
  setFlags: (flags: string) => void = (flags) => v8.setFlagsFromString(flags),
): Collect | undefined {
  if (!gc) return undefined;
  return () => {
    // Node keeps V8's flags writable after start (`--no-freeze-flags-after-init`); the flag is read by each
    // full collection, so ingestion's own collections are unchanged.
    setFlags('--compact-on-every-full-gc');
    try {
      gc();
    } finally {
      setFlags('--no-compact-on-every-full-gc');
    }
  };
}

/**
 * Gives memory back to the system once the server has been idle for 5–10 s (docs/decisions/014, 089).
 *
 * Ingestion runs with a large V8 young generation (`--max-semi-space-size=32`: fewer scavenges per
 * request), which start-up work and every burst of traffic grow to 64 MB; an idle server runs no
 * collection at all, so those pages would stay resident. After activity followed by a look (every 5 s)
 * that saw no request, a full collection runs. V8 shrinks the young generation in a full collection only
 * when it has seen a low but non-zero allocation rate over the last 5 s, which the first collection after
 * a burst (or start-up) has not: so the collection is repeated at each quiet look, up to four times, until
 * the young generation has shrunk, which is 10–15 s after the last request. Work without requests that
 * grows the young generation again afterwards (start-up's jobs after listen, the store's upkeep) starts a
 * new spell (docs/decisions/105). Each takes ~20–40 ms on an idle
 * heap and never runs while requests arrive; the young generation grows back as soon as traffic returns.
 * Needs Node's `--expose-gc` (set by `npm start`, the Dockerfile and the benches); without it nothing is
 * done.
 */
export function releaseMemoryWhenIdle(
  app: FastifyInstance,
  collect: Collect | undefined = compactingCollection(),
  youngGeneration: () => number = youngGenerationBytes,
): { stop(): void } {
  if (!collect) return { stop() {} };
  let requests = 0;
  let requestsSeen = 0;
  let collections = 0;
  // Start-up counts as activity: its garbage is the first to give back.
  let released = false;
  /** The young generation's size when the last quiet spell ended. */
  let youngAtRelease = 0;
  app.addHook('onRequest', (_request, _reply, done) => {
    requests += 1;
    done();
  });
  const timer = setInterval(() => {
    if (requests !== requestsSeen) {
      requestsSeen = requests;
      collections = 0;
      released = false;
      return;
    }
    if (released) {
      // Work without requests (the store's upkeep, a scheduler, start-up's own jobs after listen) grew the
      // young generation again after it was given back: a new quiet spell. Only growth starts one, so a
      // young generation V8 would not shrink is not collected at every look.
      if (youngGeneration() <= Math.max(youngAtRelease, SHRUNK_YOUNG_GENERATION_BYTES)) return;
      collections = 0;
      released = false;
    }
    collect();
    collections += 1;
    const young = youngGeneration();
    released = young <= SHRUNK_YOUNG_GENERATION_BYTES || collections >= MAX_COLLECTIONS;
    if (released) youngAtRelease = young;
  }, CHECK_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
