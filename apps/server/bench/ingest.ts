/**
 * `npm run bench:ingest`: the real server as a child process (temp DATA_DIR, seeded project with a key
 * and a whitelisted domain), batches of 20 over HTTP keep-alive with bounded concurrency for a bounded
 * time; prints events/s acknowledged and sustained (acknowledged and loaded), refusals by status and
 * p50/p99 latency. Then the crash check: kill -9 under load, restart on the
 * same DATA_DIR, and verify that every acknowledged event id is in the store.
 *
 * BENCH_SECONDS (default 15) and BENCH_CONCURRENCY (default 32) tune the run; BENCH_RATE=20000[,30000…]
 * paces it instead, one run of BENCH_SECONDS per offered rate (events/s) on the same server, each with its
 * refusals, latencies (from each batch's due time) and drain: the highest rate with no refusal and p99
 * within budget is the server's capacity, which a flood cannot show; BENCH_CRASH_CHECK=0 skips
 * the crash check; BENCH_PROFILE=<dir> writes a CPU profile of the server there (and skips it too).
 * BENCH_EVENT_STORE=clickhouse runs the server on the ClickHouse adapter (CLICKHOUSE_URL) against ClickHouse's
 * engine (chdb) behind its HTTP interface, started as a process of its own (test/support/chdb-http-server.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { createClickHouseEventStore } from '../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { DuckDBInstance } from '../src/modules/event-store/duckdb/binding.ts';
import { type ChdbProcess, startChdbProcess } from '../test/support/chdb-process.ts';
import { drive, percentile } from './support/load.ts';
import { processCpu } from './support/process-cpu.ts';
import { type BenchProject, seedProject } from './support/seed-project.ts';
import { freePort, type ServerProcess, startServer } from './support/server-process.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const BUDGET = { eventsPerSecond: 50_000, p99Ms: 30 };

const ENGINE = process.env.BENCH_EVENT_STORE === 'clickhouse' ? 'ClickHouse' : 'DuckDB';

async function storedIds(dataDir: string, projectId: string, clickhouseUrl?: string): Promise<Set<string>> {
  if (clickhouseUrl) {
    const store = await createClickHouseEventStore(clickhouseUrl);
    try {
      const rows = await store.clickhouse.rows(
        'SELECT id FROM events FINAL WHERE project_id = {project:String}',
        { project: projectId },
        z.object({ id: z.string() }),
      );
      return new Set(rows.map((row) => row.id));
    } finally {
      await store.close();
    }
  }
  const instance = await DuckDBInstance.create(path.join(dataDir, 'events.duckdb'), {
    access_mode: 'READ_ONLY',
  });
  const connection = await instance.connect();
  const reader = await connection.runAndReadAll('SELECT id FROM events WHERE project_id = $1', [projectId]);
  const ids = new Set(reader.getColumnsJS()[0]?.map(String) ?? []);
  connection.closeSync();
  instance.closeSync();
  return ids;
}

/**
 * One measured run on the running server: as fast as answered, or paced at `eventsPerSecond`. Prints
 * events/s, refusals by status, p50/p99, the client's and the server's CPU, the drain of the backlog and
 * the sustained rate (acknowledged and loaded).
 */
async function throughput(
  server: ServerProcess,
  project: BenchProject,
  chdb: ChdbProcess | undefined,
  runId: string,
  offered?: number,
): Promise<boolean> {
  const clientCpu = process.cpuUsage();
  const serverPid = server.child.pid as number;
  const serverCpu = { process: processCpu(serverPid), main: processCpu(serverPid, true) };
  const chdbCpuBefore = chdb ? processCpu(chdb.process.pid as number) : undefined;
  const run = await drive(server.url, project, {
    concurrency: CONCURRENCY,
    seconds: SECONDS,
    runId,
    eventsPerSecond: offered,
  });
  const { user, system } = process.cpuUsage(clientCpu);
  const processNow = processCpu(serverPid);
  const mainNow = processCpu(serverPid, true);
  const serverUser = processNow.user - serverCpu.process.user;
  const serverSystem = processNow.system - serverCpu.process.system;
  const serverProcessCpu = serverUser + serverSystem;
  const serverMainCpu = mainNow.user + mainNow.system - serverCpu.main.user - serverCpu.main.system;
  const sorted = [...run.latenciesMs].sort((a, b) => a - b);
  const eventsPerSecond = run.events / run.seconds;
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  console.log(
    offered
      ? `\n== offered ${offered.toLocaleString('en-US')} events/s (batches of 20, paced; latency from each batch's due time) ==`
      : '\n== throughput (batches of 20, as fast as answered) ==',
  );
  console.log(
    `${run.requests} requests, ${run.events} events in ${run.seconds.toFixed(1)} s, ${run.errors} non-200`,
  );
  const refusals = [...run.refusals].sort(([a], [b]) => a - b);
  console.log(
    `refusals by status: ${refusals.length === 0 ? 'none' : refusals.map(([status, count]) => `${status === 0 ? 'connection failed' : status} × ${count} (${((100 * count) / (run.requests + run.errors)).toFixed(1)} % of requests)`).join(', ')}`,
  );
  console.log(
    `events/s: ${Math.round(eventsPerSecond).toLocaleString('en-US')}  (budget ≥ ${BUDGET.eventsPerSecond.toLocaleString('en-US')})`,
  );
  console.log(
    `latency p50: ${p50.toFixed(1)} ms  p99: ${p99.toFixed(1)} ms  max: ${(sorted.at(-1) ?? 0).toFixed(1)} ms  (budget p99 ≤ ${BUDGET.p99Ms} ms)`,
  );
  // The load generator shares the machine's cores with the server.
  console.log(
    `client (this process) CPU: ${((user + system) / 1e6).toFixed(1)} s of ${run.seconds.toFixed(1)} s, ${((user + system) / Math.max(1, run.requests)).toFixed(0)} µs per request`,
  );
  const perRequest = (seconds: number) => ((seconds * 1e6) / Math.max(1, run.requests)).toFixed(0);
  console.log(
    `server CPU: ${serverProcessCpu.toFixed(1)} s (${perRequest(serverProcessCpu)} µs per request; user ${perRequest(serverUser)}, system ${perRequest(serverSystem)}), of which its JS thread ${serverMainCpu.toFixed(1)} s (${perRequest(serverMainCpu)} µs per request)`,
  );
  // Acknowledged means durable in the ingestion log; the event store is loaded in the background. The
  // integration card waits for the loader, so its answer time is the backlog left at the end of the run.
  const drainStarted = performance.now();
  const { eventsSince: storedAfterRun } = (await (
    await fetch(`${server.url}/api/v1/projects/${project.projectId}/integration?since=1970-01-01T00:00:00Z`, {
      headers: { authorization: `Bearer ${project.token}` },
    })
  ).json()) as { eventsSince: number };
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  console.log(
    `loader: ${storedAfterRun} events in ${ENGINE} ${(drainSeconds * 1000).toFixed(0)} ms after the run ended (backlog drained)`,
  );
  if (chdb && chdbCpuBefore) {
    const chdbCpu = processCpu(chdb.process.pid as number);
    const seconds = chdbCpu.user + chdbCpu.system - chdbCpuBefore.user - chdbCpuBefore.system;
    console.log(
      `chdb HTTP server process CPU for the run and the drain: ${seconds.toFixed(1)} s, ${((seconds * 1e6) / Math.max(1, run.events)).toFixed(1)} µs per event`,
    );
  }
  // Acknowledging faster than the store loads only grows the log: the sustained rate counts the drain too.
  const sustained = run.events / (run.seconds + drainSeconds);
  console.log(
    `sustained (acknowledged and loaded): ${Math.round(sustained).toLocaleString('en-US')} events/s  (budget ≥ ${BUDGET.eventsPerSecond.toLocaleString('en-US')}, no refusals)`,
  );
  const isWithinBudget = sustained >= BUDGET.eventsPerSecond && p99 <= BUDGET.p99Ms && run.errors === 0;
  console.log(isWithinBudget ? 'within budget' : 'OVER BUDGET');
  return isWithinBudget;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-'));
  let exitCode = 0;
  let chdb: ChdbProcess | undefined;
  try {
    if (ENGINE === 'ClickHouse') chdb = await startChdbProcess({ dataPath: path.join(dataDir, 'chdb') });
    const clickhouseUrl = chdb ? `${chdb.url}/polyflow` : undefined;
    const env: Record<string, string> = clickhouseUrl ? { CLICKHOUSE_URL: clickhouseUrl } : {};
    const project = await seedProject(dataDir, env);
    let server = await startServer(dataDir, await freePort(), { env });
    console.log(
      `server ${server.url}, DATA_DIR ${dataDir}, event store ${ENGINE}${chdb ? ` (chdb HTTP server pid ${chdb.process.pid})` : ''}, ${os.cpus().length} cores, concurrency ${CONCURRENCY}`,
    );

    await drive(server.url, project, { concurrency: CONCURRENCY, seconds: 2, runId: 'warm' });
    const rates = (process.env.BENCH_RATE ?? '').split(',').filter(Boolean).map(Number);
    if (rates.length === 0) await throughput(server, project, chdb, 'run');
    for (const [index, rate] of rates.entries()) await throughput(server, project, chdb, `run${index}`, rate);
    if (process.env.BENCH_PROFILE || process.env.BENCH_CRASH_CHECK === '0') {
      await server.stop();
      return;
    }

    console.log('\n== crash check: kill -9 under load ==');
    const load = drive(server.url, project, {
      concurrency: CONCURRENCY,
      seconds: 30,
      keepIds: true,
      runId: 'crash',
    });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await server.kill9();
    const crashed = await load;
    console.log(
      `killed after ${crashed.requests} acknowledged batches (${crashed.ackedIds.length} events acknowledged)`,
    );

    server = await startServer(dataDir, await freePort(), { env });
    const status = await fetch(
      `${server.url}/api/v1/projects/${project.projectId}/integration?since=1970-01-01T00:00:00Z`,
      {
        headers: { authorization: `Bearer ${project.token}` },
      },
    );
    const { eventsSince } = (await status.json()) as { eventsSince: number };
    console.log(`restarted on the same DATA_DIR: the server reports ${eventsSince} stored events`);
    await server.stop();

    const ids = await storedIds(dataDir, project.projectId, clickhouseUrl);
    const missing = crashed.ackedIds.filter((id) => !ids.has(id));
    const crashRunStored = [...ids].filter((id) => id.startsWith('crash')).length;
    console.log(
      `acknowledged: ${crashed.ackedIds.length}, found in the store: ${crashed.ackedIds.length - missing.length}, missing: ${missing.length}`,
    );
    console.log(
      `stored from the crash run: ${crashRunStored} (≥ acknowledged: batches committed but not yet answered when killed)`,
    );
    if (missing.length > 0) {
      console.log(`LOST acknowledged events, e.g. ${missing.slice(0, 5).join(', ')}`);
      exitCode = 1;
    } else {
      console.log('nothing acknowledged was lost');
    }
  } finally {
    await chdb?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(exitCode);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
