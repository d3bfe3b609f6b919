import type { FastifyInstance } from 'fastify';

/** How often the server looks whether requests arrived, and how many quiet looks make it idle. */
const CHECK_EVERY_MS = 5_000;
const QUIET_CHECKS_BEFORE_RELEASE = 2;

type Collect = () => void;

/**
 * Gives memory back to the system once the server has been idle for 10–15 s (docs/decisions/014).
 *
 * Ingestion runs with a large V8 young generation (`--max-semi-space-size=32`: fewer scavenges per
 * request), which start-up work and every burst of traffic grow to ~30 MB; V8 shrinks it only in a full
 * collection that finds the allocation rate low, and an idle server runs no collection at all. So after
 * activity followed by 10 s without a request, one full collection runs: it takes ~20 ms on an idle heap,
 * and the young generation grows back as soon as traffic returns. Needs Node's `--expose-gc` (set by
 * `npm start`, the Dockerfile and the benches); without it nothing is done.
 */
export function releaseMemoryWhenIdle(
  app: FastifyInstance,
  collect: Collect | undefined = (globalThis as { gc?: Collect }).gc,
): { stop(): void } {
  if (!collect) return { stop() {} };
  let requests = 0;
  let requestsSeen = 0;
  let quietChecks = 0;
  // Start-up counts as activity: its garbage is the first to give back.
  let released = false;
  app.addHook('onRequest', (_request, _reply, done) => {
    requests += 1;
    done();
  });
  const timer = setInterval(() => {
    if (requests !== requestsSeen) {
      requestsSeen = requests;
      quietChecks = 0;
      released = false;
      return;
    }
    if (released) return;
    quietChecks += 1;
    if (quietChecks < QUIET_CHECKS_BEFORE_RELEASE) return;
    collect();
    released = true;
  }, CHECK_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
