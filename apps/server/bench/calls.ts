/**
 * `npm run bench:calls -- --reuse <bench DuckDB file> --clickhouse-data <chdb directory> --only <words>`:
 * the ClickHouse (chdb) questions of bench/cases asked many times in a row on the largest project, call by
 * call, with what else happened during each call, to tell where a p95 far above the p50 comes from
 * (docs/decisions/135): the call's time, the engine's own statement times (CHDB_HTTP_LOG), chdb's CPU and
 * run-queue wait over all its threads (/proc/<pid>/task/<tid>/schedstat), its minor page faults, the ms it
 * spent compiling expressions (LLVM, `system.events`), and this process's GC pauses. Each question first
 * runs `--warm` times untimed (default 4: the analytics bench's untimed pass over its two projects and its
 * two warm-ups), then `--runs` times (default 50). Linux only. Options as bench:analytics's where shared.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createClickHouseEventStore } from '../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { DuckDBInstance } from '../src/modules/event-store/duckdb/binding.ts';
import { bucketRange, DAY_MS } from '../src/reading/time-range.ts';
import { startChdbProcess } from '../test/support/chdb-process.ts';
import { loadCases } from './analytics-data/load-cases.ts';
import type { DuckBenchContext } from './bench-case.ts';

const { values } = parseArgs({
  options: {
    reuse: { type: 'string' },
    'clickhouse-data': { type: 'string' },
    only: { type: 'string' },
    runs: { type: 'string', default: '50' },
    warm: { type: 'string', default: '4' },
  },
});
if (!values.reuse || !values['clickhouse-data'] || !values.only)
  throw new Error('usage: --reuse <DuckDB file> --clickhouse-data <chdb directory> --only <words>');
const END_MS = Date.UTC(2026, 0, 1);

/** CPU and run-queue wait ms of all of a process's threads. */
function schedOf(pid: number): { cpu: number; wait: number } {
  let cpu = 0;
  let wait = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const [run, queued] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ');
    cpu += Number(run) / 1e6;
    wait += Number(queued) / 1e6;
  }
  return { cpu, wait };
}
/** Minor page faults of a process (/proc/<pid>/stat, the 10th field). */
const faultsOf = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[7]);

const gcPauses: number[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauses.push(entry.duration);
}).observe({ entryTypes: ['gc'] });

process.env.CHDB_HTTP_LOG = '1';
const chdb = await startChdbProcess({ dataPath: values['clickhouse-data'] });
const pid = chdb.process.pid as number;
const statementMs: number[] = [];
chdb.process.stderr?.on('data', (chunk: Buffer) => {
  for (const line of chunk.toString().split('\n')) {
    const match = /^([\d.]+) ms /.exec(line);
    if (match) statementMs.push(Number(match[1]));
  }
});
const duckdb = await DuckDBInstance.create(values.reuse, { access_mode: 'READ_ONLY' });
const store = await createClickHouseEventStore(`${chdb.url}/bench`);
try {
  const connection = await duckdb.connect();
  const largest = (
    await connection.runAndReadAll(
      'SELECT project_id, count(*)::DOUBLE AS n FROM events GROUP BY project_id ORDER BY n DESC, project_id LIMIT 1',
    )
  ).getRowObjectsJS()[0];
  const range = { fromMs: END_MS - 30 * DAY_MS, toMs: END_MS };
  const context: DuckBenchContext = {
    projectId: String(largest?.project_id),
    range,
    daily: bucketRange(range, '1d'),
    allTime: { fromMs: END_MS - 90 * DAY_MS, toMs: END_MS },
    sampleTxHash: '0x',
    connection,
    store,
  };
  const compiledMs = async () => {
    const [row] = await store.clickhouse.rows(
      "SELECT sum(value) AS us FROM system.events WHERE event = 'CompileExpressionsMicroseconds'",
      {},
      z.object({ us: z.coerce.number() }),
    );
    return (row?.us ?? 0) / 1000;
  };
  console.log(`largest project ${context.projectId}: ${Number(largest?.n).toLocaleString('en-US')} events`);
  console.log('per call: ms; engine statements ms; chdb CPU ms, run-queue wait ms, faults; LLVM ms; GC ms');
  for (const benchCase of await loadCases(values.only)) {
    for (let i = 0; i < Number(values.warm); i++) await benchCase.duckdb(context);
    const lines: string[] = [];
    const times: number[] = [];
    for (let i = 0; i < Number(values.runs); i++) {
      const compiledBefore = await compiledMs();
      statementMs.length = 0;
      gcPauses.length = 0;
      const [sched, faults] = [schedOf(pid), faultsOf(pid)];
      const started = performance.now();
      await benchCase.duckdb(context);
      const ms = performance.now() - started;
      const [schedAfter, faultsAfter] = [schedOf(pid), faultsOf(pid)];
      await new Promise((resolve) => setTimeout(resolve, 5)); // the engine's log lines arrive
      const gc = gcPauses.reduce((sum, pause) => sum + pause, 0);
      times.push(ms);
      lines.push(
        `${String(i).padStart(3)} ${ms.toFixed(1).padStart(7)}; ${statementMs.map((s) => s.toFixed(1)).join('+')}; ` +
          `${(schedAfter.cpu - sched.cpu).toFixed(0)}, ${(schedAfter.wait - sched.wait).toFixed(0)}, ` +
          `${faultsAfter - faults}; ${((await compiledMs()) - compiledBefore).toFixed(0)}; ${gc.toFixed(1)}`,
      );
    }
    const sorted = [...times].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
    console.log(
      `\n== ${benchCase.name}: p50 ${at(0.5).toFixed(1)} p95 ${at(0.95).toFixed(1)} max ${at(1).toFixed(1)} ms`,
    );
    console.log(lines.join('\n'));
  }
} finally {
  await store.close();
  await chdb.stop();
  duckdb.closeSync();
}
