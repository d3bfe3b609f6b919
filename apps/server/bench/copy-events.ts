/**
 * `npm run bench:copy`: seeds an embedded DuckDB event store with the analytics bench's generated events
 * (analytics-data/generate-events.ts: 300 projects of skewed sizes, 90 days, transactions, signatures,
 * errors with incidents), copies it into ClickHouse (the chdb engine behind ClickHouse's HTTP interface,
 * test/support/chdb-process.ts) with the real command (`npm run admin -- copy-events --to-clickhouse`, as a
 * process of its own), runs it again (the final pass: "safe to switch"), then asks every dashboard
 * question (test/support/dashboard-answers.ts: Analytics, Live, Acquisition, Incidents, the integration
 * check; whole span by day, a week, the last 30 minutes) of both stores for a few projects and compares
 * the answers exactly. Prints the copy's events/s, duration, CPU time and peak RSS (the command's and the
 * ClickHouse process's), and "N questions equal, M differ".
 *
 * Options: --events <count> (default 1000000), --projects <count> compared (default 6: the largest, the
 * median, the smallest and evenly spaced ones between), --load-events <count> (the command's default).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { createClickHouseEventStore } from '../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { DuckDBInstance } from '../src/modules/event-store/duckdb/binding.ts';
import { createDuckDbEventStore } from '../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { CREATE_EVENTS_TABLE } from '../src/modules/event-store/duckdb/schema.ts';
import { startChdbProcess } from '../test/support/chdb-process.ts';
import { dashboardAnswers } from '../test/support/dashboard-answers.ts';
import { generateBenchEvents } from './analytics-data/generate-events.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    projects: { type: 'string', default: '6' },
    'load-events': { type: 'string' },
  },
});
const TOTAL = Number(values.events);
const COMPARED = Number(values.projects);
const DAYS = 90;
const END_MS = Date.UTC(2026, 10, 1);
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const seconds = (startedMs: number) => (performance.now() - startedMs) / 1000;
const figure = (value: number) => Math.round(value).toLocaleString('en-US');
const log = (line: string) => process.stdout.write(`${line}\n`);
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

/** CPU seconds (user + system) and peak RSS (MB) of a live process, from /proc (Linux). */
function processFigures(pid: number): { cpuS: number; peakRssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpuS: ticks / 100, peakRssMb: Number(hwm) / 1024 };
}

/** The store the way a server leaves it: the event table with its key, the rows, the derived tables. */
async function seed(file: string): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    await connection.run(CREATE_EVENTS_TABLE);
    await generateBenchEvents(connection, { total: TOTAL, days: DAYS, endMs: END_MS });
    await connection.run('CHECKPOINT');
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  // Opening it as the store derives its tables (ADR 054) as a server's first start would.
  const store = await createDuckDbEventStore({ file });
  await store.close();
}

/** The command as an operator runs it, timed by /usr/bin/time for its peak RSS. */
async function copyCommand(dataDir: string, clickhouseUrl: string) {
  const timeFile = path.join(dataDir, 'copy.time');
  const loadEvents = values['load-events'] ? ['--load-events', values['load-events']] : [];
  const started = performance.now();
  const child = promisify(execFile)(
    '/usr/bin/time',
    [
      '-f',
      '%M %U %S',
      '-o',
      timeFile,
      process.execPath,
      '--import',
      'tsx',
      'src/admin/cli.ts',
      'copy-events',
      '--to-clickhouse',
      ...loadEvents,
    ],
    {
      cwd: serverRoot,
      env: { ...process.env, DATA_DIR: dataDir, CLICKHOUSE_URL: clickhouseUrl },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  child.child.stderr?.pipe(process.stderr);
  const { stdout } = await child;
  const tookS = seconds(started);
  const [rssKb, userS, systemS] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)?.split(' ') ?? [];
  const copied = Number(/([\d,]+) events copied in this pass/.exec(stdout)?.[1]?.replaceAll(',', '') ?? 0);
  return {
    stdout: stdout.trim(),
    tookS,
    copied,
    cpuS: Number(userS) + Number(systemS),
    peakRssMb: Number(rssKb) / 1024,
  };
}

/** The projects to compare: the largest, the smallest, the median, and evenly spaced ones between. */
async function projectsToCompare(file: string): Promise<{ projectId: string; events: number }[]> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      'SELECT project_id, count(*)::DOUBLE AS events FROM events GROUP BY ALL ORDER BY events DESC, project_id',
    );
    const all = reader.getRowObjectsJS().map((row) => ({
      projectId: String(row.project_id),
      events: Number(row.events),
    }));
    const picks = new Set<number>([0, all.length - 1, Math.floor(all.length / 2)]);
    for (let index = 1; picks.size < Math.min(COMPARED, all.length); index++) {
      picks.add(Math.floor((index * (all.length - 1)) / COMPARED));
    }
    return [...picks]
      .sort((a, b) => a - b)
      .map((index) => all[index] as { projectId: string; events: number });
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-copy-'));
  const dataDir = path.join(dir, 'data');
  const file = path.join(dataDir, 'events.duckdb');
  log(`${os.cpus().length} cores, load average ${load()} at the start; DATA_DIR ${dataDir}`);
  const chdb = await startChdbProcess({ dataPath: path.join(dir, 'chdb') });
  try {
    let started = performance.now();
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    await seed(file);
    log(
      `seeded about ${figure(TOTAL)} events (${DAYS} days) with derived tables in ${seconds(started).toFixed(1)} s`,
    );

    const url = `${chdb.url}/polyflow_copy`;
    const chdbBefore = processFigures(chdb.process.pid as number);
    const first = await copyCommand(dataDir, url);
    const chdbAfter = processFigures(chdb.process.pid as number);
    log(first.stdout);
    log(
      `copy: ${figure(first.copied)} events in ${first.tookS.toFixed(1)} s = ${figure(first.copied / first.tookS)} events/s; ` +
        `the command: ${first.cpuS.toFixed(1)} s CPU, peak RSS ${figure(first.peakRssMb)} MB; ` +
        `ClickHouse (chdb process): ${(chdbAfter.cpuS - chdbBefore.cpuS).toFixed(1)} s CPU, peak RSS ${figure(chdbAfter.peakRssMb)} MB; ` +
        `load average ${load()}`,
    );
    const final = await copyCommand(dataDir, url);
    log(final.stdout);
    log(`final pass: ${final.tookS.toFixed(1)} s`);

    started = performance.now();
    const projects = await projectsToCompare(file);
    const duck = await createDuckDbEventStore({ file });
    const clickhouse = await createClickHouseEventStore(url);
    let equal = 0;
    const differ: string[] = [];
    try {
      for (const { projectId, events } of projects) {
        const expected = await dashboardAnswers(duck, projectId);
        const actual = await dashboardAnswers(clickhouse, projectId);
        const names = new Set([...Object.keys(expected), ...Object.keys(actual)]);
        let projectEqual = 0;
        for (const name of names) {
          if (JSON.stringify(expected[name]) === JSON.stringify(actual[name])) projectEqual++;
          else differ.push(`${projectId} (${figure(events)} events): ${name}`);
        }
        equal += projectEqual;
        log(`project ${projectId}: ${figure(events)} events, ${projectEqual} of ${names.size} answers equal`);
      }
    } finally {
      await duck.close();
      await clickhouse.close();
    }
    for (const line of differ) log(`differs: ${line}`);
    log(
      `${equal} questions equal, ${differ.length} differ (${projects.length} projects, compared in ${seconds(started).toFixed(1)} s); load average ${load()}`,
    );
    if (differ.length > 0) process.exitCode = 1;
  } finally {
    await chdb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
