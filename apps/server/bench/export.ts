/**
 * `npm run bench:export`: the raw export of a large project through the real server. Generates N events
 * (default 10,000,000; `--events <count>`) with the analytics bench's generator straight into a temp
 * DATA_DIR's DuckDB file, or takes every event of an existing DuckDB file (`--reuse <file>`, e.g. one
 * `bench:analytics --keep` left; opened read-only, never written), all in one seeded project and
 * clustered by time as compaction leaves them. Starts the built server (dist/main.js, as `npm start`
 * runs it) on that DATA_DIR, and downloads `GET /api/v1/projects/:id/export/events` for the whole period
 * in each format (`--formats ndjson,csv`). Prints rows/s, MB/s, the server's CPU µs per row (less
 * disturbed by other load than wall time), its RSS before and at its peak during each export (sampled
 * from /proc every 50 ms), and the machine's load average.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '../src/modules/event-store/duckdb/binding.ts';
import { CREATE_COMPACTION_TABLE } from '../src/modules/event-store/duckdb/compaction.ts';
import { ensureDerivedTables } from '../src/modules/event-store/duckdb/derived-tables.ts';
import { CREATE_EVENTS_TABLE } from '../src/modules/event-store/duckdb/schema.ts';
import { generateBenchEvents } from './analytics-data/generate-events.ts';
import { seedProject } from './support/seed-project.ts';
import { freePort, startServer } from './support/server-process.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    reuse: { type: 'string' },
    formats: { type: 'string', default: 'ndjson,csv' },
  },
});
const TOTAL = Number(values.events);
const FORMATS = values.formats.split(',').filter((format) => format === 'ndjson' || format === 'csv');
const END_MS = Date.UTC(2026, 0, 1);
const DAYS = 90;
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const IDLE_WAIT_MS = 16_000;
const loadAverage = () =>
  `load average ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')} (${os.cpus().length} cores)`;
const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

/** Clock ticks (user + system) of a /proc stat line: fields 14 and 15, after the name in parentheses. */
function statTicks(file: string): number {
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * RSS and the server's CPU time (user + system, in µs) from /proc (Linux): all its threads, and its main
 * thread alone (the JavaScript thread, task id = pid), which a loaded machine changes less than times.
 */
function processFacts(pid: number): { rssMb: number; cpuUs: number; mainCpuUs: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses; in clock ticks (100/s).
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return {
    rssMb: rssKb / 1024,
    cpuUs: ticks * 10_000,
    mainCpuUs: statTicks(`/proc/${pid}/task/${pid}/stat`) * 10_000,
  };
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Events generated inside DuckDB into the store's file (or those of `--reuse`), then moved into the
 * seeded project.
 */
async function prepareEvents(
  file: string,
  projectId: string,
): Promise<{ count: number; fromMs: number; toMs: number }> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    let source = 'events';
    if (values.reuse) {
      await connection.run(`ATTACH ${quote(values.reuse)} AS reused (READ_ONLY)`);
      source = 'reused.events';
    } else {
      await connection.run(CREATE_EVENTS_TABLE.replace(/,\s*PRIMARY KEY \(project_id, id\)/, ''));
      await generateBenchEvents(connection, { total: TOTAL, days: DAYS, endMs: END_MS });
    }
    // One project holds every event; clustered by time, as the store's compaction leaves a table.
    await connection.run(
      `CREATE TABLE events_one AS SELECT * REPLACE ($project AS project_id) FROM ${source} ORDER BY ts, id`,
      { project: projectId },
    );
    if (values.reuse) await connection.run('DETACH reused');
    // The seeded server created an empty `events` (reused) or the generator filled it.
    await connection.run('DROP TABLE events');
    await connection.run('ALTER TABLE events_one RENAME TO events');
    await ensureDerivedTables(connection);
    // Clustered already: the server's compaction (ADR 004) would otherwise rewrite the whole table a
    // few seconds after start-up, in the middle of the first export.
    await connection.run(CREATE_COMPACTION_TABLE);
    await connection.run('INSERT INTO events_compaction SELECT count(*), now()::TIMESTAMP FROM events');
    await connection.run('CHECKPOINT');
    const reader = await connection.runAndReadAll(
      'SELECT count(*)::DOUBLE AS n, epoch_ms(min(ts))::DOUBLE AS first, epoch_ms(max(ts))::DOUBLE AS last FROM events',
    );
    const facts = reader.getRowObjectsJS()[0] as { n: number; first: number; last: number };
    // Whole days around every event: the export's [from, to) takes them all.
    const fromMs = Math.floor(facts.first / 86_400_000) * 86_400_000;
    const toMs = (Math.floor(facts.last / 86_400_000) + 1) * 86_400_000;
    return { count: facts.n, fromMs, toMs };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['build.mjs'], { cwd: serverRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-export-'));
  try {
    const project = await seedProject(dataDir);
    let started = performance.now();
    const { count, fromMs, toMs } = await prepareEvents(
      path.join(dataDir, 'events.duckdb'),
      project.projectId,
    );
    log(
      `${count.toLocaleString('en-US')} events ${values.reuse ? `taken from ${values.reuse}` : 'generated'} ` +
        `into one project in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    // Opening a large file on a busy machine can take a while.
    const server = await startServer(dataDir, await freePort(), { built: true, startTimeoutMs: 300_000 });
    const pid = server.child.pid as number;
    try {
      for (const format of FORMATS) {
        // The server gives start-up's (or the last export's) garbage back after 10–15 s idle (ADR 014).
        await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MS));
        log(`server idle at RSS ${processFacts(pid).rssMb.toFixed(0)} MB; ${loadAverage()}`);
        const from = new Date(fromMs).toISOString();
        const to = new Date(toMs).toISOString();
        const before = processFacts(pid);
        let peakMb = before.rssMb;
        const sampler = setInterval(() => {
          peakMb = Math.max(peakMb, processFacts(pid).rssMb);
        }, 50);
        started = performance.now();
        const response = await fetch(
          `${server.url}/api/v1/projects/${project.projectId}/export/events?from=${from}&to=${to}&format=${format}`,
          { headers: { authorization: `Bearer ${project.token}` } },
        );
        if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`);
        let bytes = 0;
        let lines = 0;
        // A line every 30 s: a long run on a busy machine says how it goes (and what RSS did) as it goes.
        const progress = setInterval(() => {
          const elapsed = (performance.now() - started) / 1000;
          log(
            `${format}: ${lines.toLocaleString('en-US')} rows after ${elapsed.toFixed(0)} s ` +
              `(${Math.round(lines / elapsed).toLocaleString('en-US')} rows/s); server RSS now ` +
              `${processFacts(pid).rssMb.toFixed(0)} MB, peak ${peakMb.toFixed(0)} MB; ${loadAverage()}`,
          );
        }, 30_000);
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
          bytes += chunk.length;
          for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) lines++;
        }
        clearInterval(progress);
        const seconds = (performance.now() - started) / 1000;
        clearInterval(sampler);
        const after = processFacts(pid);
        // CSV: the header line; a quoted line break inside a value would count twice (none generated).
        const rows = format === 'csv' ? lines - 1 : lines;
        if (rows !== count) throw new Error(`${format}: exported ${rows} rows of ${count}`);
        log(
          `${format}: ${rows.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(0)} MB in ${seconds.toFixed(1)} s: ` +
            `${Math.round(rows / seconds).toLocaleString('en-US')} rows/s, ${(bytes / 1e6 / seconds).toFixed(1)} MB/s; ` +
            `server CPU ${((after.cpuUs - before.cpuUs) / rows).toFixed(2)} µs/row, ` +
            `its main thread ${((after.mainCpuUs - before.mainCpuUs) / rows).toFixed(2)} µs/row; ` +
            `server RSS ${before.rssMb.toFixed(0)} MB before, peak ${peakMb.toFixed(0)} MB during; ${loadAverage()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MS));
      log(`server idle again at RSS ${processFacts(pid).rssMb.toFixed(0)} MB`);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
