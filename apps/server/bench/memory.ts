/**
 * `npm run bench:memory`: the server's resident memory as an operator sees it. Builds and runs the bundle
 * `npm start` runs (dist/main.js) as a child process on a temp DATA_DIR with a seeded project, and prints
 * its RSS (from /proc) idle after start-up, right after BENCH_EVENTS (default 1,000,000) events ingested
 * over HTTP in batches of 20 from a few client IPs (geo-IP and User-Agent parsing on every batch), and once
 * the loader has moved them into DuckDB. "Idle" is 20 s without a request: the server gives its young
 * generation back after 10–15 s of quiet, 15–20 s when V8 needs a second collection to shrink it
 * (src/http/idle-memory.ts), as a server between bursts would. The server runs as `npm start` runs it
 * (support/server-process.ts: the same Node flags, `UV_THREADPOOL_SIZE` and `MALLOC_ARENA_MAX`).
 * Also prints RSS 5 s after start-up, before that release. Exits 1 when idle RSS is over the 120 MB
 * budget (DESIGN.md).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drive } from './support/load.ts';
import { seedProject } from './support/seed-project.ts';
import { freePort, startServer } from './support/server-process.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const IDLE_BUDGET_MB = 120;
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident and peak resident memory of a process, in MB, from /proc/<pid>/status (Linux). */
function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Bytes acknowledged but not yet loaded into DuckDB: the segment files of the ingestion log. */
function backlogBytes(dataDir: string): number {
  const dir = path.join(dataDir, 'ingest-log');
  try {
    return readdirSync(dir).reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['build.mjs'], { cwd: serverRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-memory-'));
  let exitCode = 0;
  try {
    const project = await seedProject(dataDir);
    // TRUST_PROXY: the load generator's X-Forwarded-For addresses are the clients geo-IP looks up.
    const server = await startServer(dataDir, await freePort(), {
      built: true,
      env: { TRUST_PROXY: 'true' },
    });
    const pid = server.child.pid as number;
    try {
      // Start-up work that runs after listen (the store's upkeep scheduler) settles first; the geo-IP
      // database is read on the first event that needs a country.
      await sleep(5_000);
      const justStarted = memoryMb(pid);
      await sleep(15_000);
      const idle = memoryMb(pid);

      const started = performance.now();
      let events = 0;
      let errors = 0;
      while (events < EVENTS) {
        const run = await drive(server.url, project, {
          concurrency: 16,
          seconds: 600,
          maxEvents: EVENTS - events,
          runId: `m${events}`,
        });
        events += run.events;
        errors += run.errors;
        // 503 INGESTION_BACKLOG asks clients to come back later, as the SDK does.
        if (run.errors > 0) await sleep(1_000);
      }
      const seconds = (performance.now() - started) / 1000;
      const afterIngest = memoryMb(pid);

      const drainDeadline = Date.now() + 120_000;
      while (backlogBytes(dataDir) > 0 && Date.now() < drainDeadline) await sleep(500);
      await sleep(2_000);
      const afterLoad = memoryMb(pid);
      await sleep(20_000);
      const idleAgain = memoryMb(pid);
      const drained = backlogBytes(dataDir) === 0;

      const mb = (value: number) => `${value.toFixed(0)} MB`;
      console.log(
        `\n== server memory (RSS of dist/main.js, ${os.cpus().length} cores, Node ${process.version}) ==`,
      );
      console.log(`5 s after start-up:            ${mb(justStarted.rss)}`);
      console.log(`idle after start-up (20 s):    ${mb(idle.rss)}  (budget ≤ ${IDLE_BUDGET_MB} MB)`);
      console.log(
        `after ${events.toLocaleString('en-US')} events ingested: ${mb(afterIngest.rss)}  (${seconds.toFixed(1)} s, ${errors} refused and retried)`,
      );
      console.log(
        `after the loader caught up:    ${mb(afterLoad.rss)}  (${drained ? 'log drained' : 'log NOT drained within 120 s'})`,
      );
      console.log(`idle 20 s after that:          ${mb(idleAgain.rss)}`);
      console.log(`peak RSS over the run:         ${mb(idleAgain.peak)}`);
      if (idle.rss > IDLE_BUDGET_MB) {
        console.error(`idle RSS ${mb(idle.rss)} is over the ${IDLE_BUDGET_MB} MB budget`);
        exitCode = 1;
      }
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(exitCode);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
