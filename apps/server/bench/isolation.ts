/**
 * `npm run bench:isolation` (issue 31): one tenant's heavy exports against another tenant's ingestion,
 * dashboards and `/sdk.js`, on one server and its embedded store: the built bundle `npm start` runs
 * (dist/main.js: run `npm run build` first), or src/main.ts through tsx with `BENCH_TSX=1` (its loader's
 * hooks run in the server's event loop, which the users' server does not carry).
 *
 * - The exporting tenant gets `--events` events (default 120,000) through ingestion, then runs `--exports`
 *   (default 6) concurrent full exports for `--seconds` (default 30): half with its session, half with a
 *   read token, NDJSON and CSV in turns. A refused export (429 TOO_MANY_EXPORTS) is asked again 1 s later.
 * - Meanwhile the other tenant sends 1,000 events/s in batches of 20 (paced, latency from each batch's
 *   due time), asks its dashboard (analyticsOverview + transactionHistory + walletProviders at once, as
 *   the console does, one round after another) and `GET /sdk.js` every 50 ms.
 * - Before its baseline, the other tenant's traffic runs 10 s unmeasured (its summary is printed): a server's
 *   first requests compile and build what it defers at start (V8's optimizing compiler, the GraphQL engine:
 *   docs/decisions/099, 105), a one-time stall of its event loop of about 140 ms that is not another tenant's
 *   doing and would otherwise be the baseline's p99.
 *
 * Prints ingestion p99, dashboard round p95, /sdk.js p99, exports completed and refused, the server's peak
 * RSS (from /proc every 100 ms) and the load average; the server's event loop delay (perf_hooks, a
 * histogram a second: support/loop-delay.mjs) and the CPU time of its main (JavaScript) thread, from
 * /proc, which a loaded machine changes less than latencies; then one `budget` line per budget. `--engine duckdb|clickhouse` (ClickHouse: its engine,
 * chdb, behind its HTTP interface in a process of its own, as bench:ingest runs it).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { everyDashboardQuery } from '../test/hostile/every-query.ts';
import { type ChdbProcess, startChdbProcess } from '../test/support/chdb-process.ts';
import { drive, percentile } from './support/load.ts';
import { type BenchProject, seedProject } from './support/seed-project.ts';
import { freePort, startServer } from './support/server-process.ts';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'duckdb' },
    events: { type: 'string', default: '120000' },
    exports: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '30' },
    // Internal: the exporting tenant's clients run in a process of their own, so that reading the exports'
    // bytes does not delay the measuring client's own event loop.
    role: { type: 'string', default: 'measure' },
    url: { type: 'string' },
    project: { type: 'string' },
    session: { type: 'string' },
    'read-token': { type: 'string' },
  },
});
const ENGINE = values.engine === 'clickhouse' ? 'clickhouse' : 'duckdb';
const EVENTS = Number(values.events);
const EXPORTS = Number(values.exports);
const SECONDS = Number(values.seconds);
const XSRF = 'bench-xsrf-token-value-000000000';
const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

/** CPU seconds the process's main thread (its JavaScript thread: task id = pid) has used. */
function mainThreadCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

type LoopDelaySecond = { at: number; p99: number; max: number };

/** The server's event loop delay, a line a second, within [fromMs, toMs]. */
function loopDelays(file: string, fromMs: number, toMs: number): LoopDelaySecond[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LoopDelaySecond)
    .filter(({ at }) => at >= fromMs && at <= toMs);
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

async function createReadToken(url: string, project: BenchProject): Promise<string> {
  const response = await fetch(`${url}/api/v1/projects/${project.projectId}/read-tokens`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${project.token}`,
      'content-type': 'application/json',
      cookie: `XSRF-TOKEN=${XSRF}`,
      'x-xsrf-token': XSRF,
    },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (response.status !== 201) throw new Error(`read token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

async function storedCount(url: string, project: BenchProject): Promise<number> {
  const response = await fetch(
    `${url}/api/v1/projects/${project.projectId}/integration?since=2015-01-01T00:00:00Z`,
    { headers: { authorization: `Bearer ${project.token}` } },
  );
  return ((await response.json()) as { eventsSince: number }).eventsSince;
}

type ExportTally = { completed: number; refused: number; failed: number; bytes: number };

/** One export after another until `endAt`: completed, refused (429) and failed, bytes received. */
async function exportLoop(
  url: string,
  projectId: string,
  token: string,
  format: 'ndjson' | 'csv',
  endAt: number,
  tally: ExportTally,
): Promise<void> {
  while (Date.now() < endAt) {
    try {
      const response = await fetch(
        `${url}/api/v1/projects/${projectId}/export/events?from=2015-01-01&to=2030-01-01&format=${format}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      if (response.status === 429) {
        tally.refused++;
        await response.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        continue;
      }
      if (response.status !== 200 || !response.body) {
        tally.failed++;
        await response.arrayBuffer().catch(() => undefined);
        continue;
      }
      for await (const chunk of response.body) tally.bytes += (chunk as Uint8Array).length;
      tally.completed++;
    } catch {
      tally.failed++;
    }
  }
}

async function dashboardLoop(url: string, project: BenchProject, endAt: number, rounds: number[]) {
  const wanted = new Set(['analyticsOverview', 'transactionHistory', 'walletProviders']);
  const queries = everyDashboardQuery(project.projectId, {
    from: new Date(Date.now() - 86_400_000).toISOString(),
    to: new Date(Date.now() + 3_600_000).toISOString(),
  }).filter((query) => wanted.has(query.name));
  while (Date.now() < endAt) {
    const started = performance.now();
    const answers = await Promise.all(
      queries.map((query) =>
        fetch(`${url}/api/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${project.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: query.query, variables: query.variables }),
        }).then(async (response) => ({ status: response.status, body: await response.text() })),
      ),
    );
    rounds.push(performance.now() - started);
    const bad = answers.find((answer) => answer.status !== 200 || answer.body.includes('"errors"'));
    if (bad) throw new Error(`dashboard: ${bad.status} ${bad.body.slice(0, 300)}`);
  }
}

async function sdkLoop(url: string, endAt: number, latencies: number[]) {
  while (Date.now() < endAt) {
    const started = performance.now();
    const response = await fetch(`${url}/sdk.js`);
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** The exporting tenant's `--exports` clients, in a child process; answers their tally. */
function exporterProcess(url: string, project: BenchProject, readToken: string): Promise<ExportTally> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      '--role',
      'exporter',
      '--url',
      url,
      '--project',
      project.projectId,
      '--session',
      project.token,
      '--read-token',
      readToken,
      '--exports',
      String(EXPORTS),
      '--seconds',
      String(SECONDS),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    output += text;
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output) as ExportTally) : reject(new Error(`exporter exited ${code}`)),
    );
  });
}

async function runExporters(): Promise<void> {
  const tally: ExportTally = { completed: 0, refused: 0, failed: 0, bytes: 0 };
  const endAt = Date.now() + SECONDS * 1000;
  const tokens = [values.session as string, values['read-token'] as string];
  await Promise.all(
    Array.from({ length: EXPORTS }, (_, index) =>
      exportLoop(
        values.url as string,
        values.project as string,
        tokens[index % 2] as string,
        index % 4 < 2 ? 'ndjson' : 'csv',
        endAt,
        tally,
      ),
    ),
  );
  process.stdout.write(JSON.stringify(tally));
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-isolation-'));
  let chdb: ChdbProcess | undefined;
  try {
    if (ENGINE === 'clickhouse') chdb = await startChdbProcess({ dataPath: path.join(dataDir, 'chdb') });
    const env: Record<string, string> = chdb ? { CLICKHOUSE_URL: `${chdb.url}/polyflow` } : {};
    const exporting = await seedProject(dataDir, env);
    const other = await seedProject(dataDir, env);
    const loopDelayFile = path.join(dataDir, 'loop-delay.ndjson');
    const server = await startServer(dataDir, await freePort(), {
      built: process.env.BENCH_TSX !== '1',
      env: { ...env, BENCH_LOOP_DELAY_FILE: loopDelayFile },
    });
    const pid = server.child.pid as number;
    log(
      `server ${server.url}, event store ${ENGINE}, ${os.cpus().length} cores, load average ${loadAverage()}`,
    );

    const filled = await drive(server.url, exporting, {
      concurrency: 4,
      seconds: 600,
      maxEvents: EVENTS,
      runId: 'fill',
    });
    for (
      let waited = 0;
      (await storedCount(server.url, exporting)) < filled.events && waited < 120;
      waited++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    log(`exporting tenant: ${filled.events} events acknowledged and stored`);
    const readToken = await createReadToken(server.url, exporting);

    const warmUp = await measure(server.url, other, pid, loopDelayFile, 10, null);
    log(`warm-up (not measured against the budgets): ${warmUp.summary}`);
    // The other tenant, quiet: its baseline, then the same under the exports.
    const baseline = await measure(server.url, other, pid, loopDelayFile, 10, null);
    log(`baseline (no exports, 10 s): ${baseline.summary}`);
    let tally: ExportTally = { completed: 0, refused: 0, failed: 0, bytes: 0 };
    const loaded = await measure(server.url, other, pid, loopDelayFile, SECONDS, async () => {
      tally = await exporterProcess(server.url, exporting, readToken);
    });
    log(
      `with ${EXPORTS} concurrent exports of ${filled.events} events (${SECONDS} s): ${loaded.summary}; ` +
        `exports completed ${tally.completed}, refused ${tally.refused} (429), failed ${tally.failed}, ` +
        `${(tally.bytes / 1e6).toFixed(0)} MB received`,
    );
    const budget = (name: string, value: number, limit: number) =>
      console.log(
        `budget ${ENGINE} ${name}: ${value.toFixed(1)} ms (≤ ${limit} ms) ${value <= limit ? 'MET' : 'MISSED'}`,
      );
    budget('other tenant ingestion p99', loaded.ingestP99, 50);
    budget('other tenant dashboard p95', loaded.dashboardP95, 300);
    budget('/sdk.js p99', loaded.sdkP99, 20);
    console.log(
      `budget ${ENGINE} exports: ${tally.completed} completed, ${tally.failed} failed ${tally.completed > 0 && tally.failed === 0 ? 'MET' : 'MISSED'}`,
    );
    await server.stop();
  } finally {
    await chdb?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(
  url: string,
  project: BenchProject,
  pid: number,
  loopDelayFile: string,
  seconds: number,
  heavy: (() => Promise<unknown>) | null,
) {
  let peakRss = rssMb(pid);
  const startedAt = Date.now();
  const cpuBefore = mainThreadCpuSeconds(pid);
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(pid));
  }, 100);
  const endAt = Date.now() + seconds * 1000;
  const rounds: number[] = [];
  const sdk: number[] = [];
  const load = heavy?.();
  const [ingested] = await Promise.all([
    drive(url, project, { concurrency: 4, seconds, eventsPerSecond: 1000, runId: `o${Date.now()}` }),
    dashboardLoop(url, project, endAt, rounds),
    sdkLoop(url, endAt, sdk),
  ]);
  await load;
  clearInterval(sampler);
  const cpuSeconds = mainThreadCpuSeconds(pid) - cpuBefore;
  const wallSeconds = (Date.now() - startedAt) / 1000;
  const delays = loopDelays(loopDelayFile, startedAt, Date.now());
  const delayP99 = percentile(sorted(delays.map(({ p99 }) => p99)), 50);
  const delayMax = Math.max(0, ...delays.map(({ max }) => max));
  const ingest = sorted(ingested.latenciesMs);
  const ingestP99 = percentile(ingest, 99);
  const dashboardP95 = percentile(sorted(rounds), 95);
  const sdkP99 = percentile(sorted(sdk), 99);
  const summary =
    `ingestion p99 ${ingestP99.toFixed(1)} ms (${ingested.events} events, ${ingested.errors} refused), ` +
    `dashboard p95 ${dashboardP95.toFixed(1)} ms (max ${Math.max(...rounds).toFixed(0)}, ${rounds.length} rounds), ` +
    `/sdk.js p99 ${sdkP99.toFixed(1)} ms, peak RSS ${peakRss.toFixed(0)} MB; server event loop delay: ` +
    `median second's p99 ${delayP99.toFixed(1)} ms, max ${delayMax.toFixed(0)} ms; main thread CPU ` +
    `${cpuSeconds.toFixed(1)} s in ${wallSeconds.toFixed(0)} s (${((100 * cpuSeconds) / wallSeconds).toFixed(0)} %); ` +
    `load average ${loadAverage()}`;
  return { summary, ingestP99, dashboardP95, sdkP99 };
}

if (values.role === 'exporter') await runExporters();
else await main();
