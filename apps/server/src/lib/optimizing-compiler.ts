import v8 from 'node:v8';
import type { FastifyInstance } from 'fastify';

/**
 * V8's optimizing compiler (TurboFan) held back while the server starts, until it has work: start-up's
 * busy functions (schemas composed, routes registered, migrations checked) would otherwise be optimized,
 * and the compiler's own code pages in the `node` binary, its output and its zones stay resident in an
 * idle server that never runs them again: about 4 MB of `node`'s pages and 1 MB of heap at idle
 * (docs/decisions/105). The first request (other than a health check or a /metrics scrape, which an idle
 * server answers all day) or the first ingestion load turns it on for good; code then
 * tiers up as it always does, so requests and loads run as before. Only `src/main.ts` defers it (before it imports the server): tests,
 * benches that build the app in-process and the admin command line start with the compiler on.
 */
// On globalThis: dist/main.js defers, dist/server.js turns it on, and each bundle has its own copy of this module.
const DEFERRED = Symbol.for('polyflow.optimizingCompilerDeferred');
const state = globalThis as { [DEFERRED]?: boolean };

/** Turns the optimizing compiler off until {@link enableOptimizingCompiler}. */
export function deferOptimizingCompiler(setFlags: (flags: string) => void = v8.setFlagsFromString): void {
  setFlags('--no-turbofan');
  state[DEFERRED] = true;
}

/** Turns the optimizing compiler back on, once; a no-op unless it was deferred. */
export function enableOptimizingCompiler(setFlags: (flags: string) => void = v8.setFlagsFromString): void {
  if (!state[DEFERRED]) return;
  state[DEFERRED] = false;
  setFlags('--turbofan');
}

/** Whether the optimizing compiler is still held back (the footprint test reads it). */
export function optimizingCompilerDeferred(): boolean {
  return state[DEFERRED] === true;
}

/** What monitoring asks an idle server all day: answered without turning the compiler on. */
const PROBE_ROUTES = new Set(['/api/v1/health', '/metrics']);

/** The first request other than a probe turns the optimizing compiler on (the first load does too, ingest-log/service.ts). */
export function enableOptimizingCompilerOnFirstWork(
  app: FastifyInstance,
  setFlags: (flags: string) => void = v8.setFlagsFromString,
): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (state[DEFERRED] && !PROBE_ROUTES.has(request.routeOptions.url ?? ''))
      enableOptimizingCompiler(setFlags);
    done();
  });
}
