/**
 * `npm run bench:log`: the ingestion log's append in isolation (no HTTP, no loader): BENCH_APPENDS
 * (default 2,000) appends of a group of 32 bench batches (640 events) as rows records, each durable
 * (fdatasync) before the next, rotating every 200. Prints wall time per append and the CPU of the
 * JavaScript thread (what the request path pays) and of the whole process per append, from /proc (Linux).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createIngestLog } from '../src/modules/ingest-log/ingest-log.ts';
import { batchEntry } from '../src/modules/ingestion/log-entries.ts';
import { batch, benchRequest } from './support/load.ts';
import { processCpuMs } from './support/process-cpu.ts';

const APPENDS = Number(process.env.BENCH_APPENDS ?? 2000);

/** CPU ms (user + system) of this process, or of its JavaScript thread. */
const cpuMs = (thread: boolean): number => processCpuMs(process.pid, thread);

const request = benchRequest();
const group: string[] = [];
for (let b = 0; b < 32; b++) {
  const events = (JSON.parse(batch({ apiKey: 'bench' }, `g${b}`).body) as { events: never[] }).events;
  group.push(batchEntry(request, events).encode(new Set()));
}
const events = 32 * 20;
const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-log-'));
try {
  const log = createIngestLog(dir);
  for (let i = 0; i < 50; i++) await log.append(group);
  const thread = cpuMs(true);
  const whole = cpuMs(false);
  const started = performance.now();
  for (let i = 1; i <= APPENDS; i++) {
    await log.append(group);
    if (i % 200 === 0) await log.rotate();
  }
  const perAppend = (ms: number) => (ms * 1000) / APPENDS;
  const threadUs = perAppend(cpuMs(true) - thread);
  console.log(
    `${APPENDS} appends of ${events} events: ${((performance.now() - started) / APPENDS).toFixed(2)} ms each (wall); ` +
      `JavaScript thread ${threadUs.toFixed(0)} µs of CPU per append (${(threadUs / events).toFixed(2)} µs per event), ` +
      `process ${perAppend(cpuMs(false) - whole).toFixed(0)} µs`,
  );
  await log.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
