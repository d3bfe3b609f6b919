/**
 * `npm run bench:load`: the ingestion loader's cost per event, in isolation from HTTP. The ingest bench's
 * batches are written to segment files of BENCH_EVENTS events (default 140,000: the size of a load under
 * heavy ingestion, ADR 053) as rows records, what ingestion writes (ADR 053). A fresh store loads a
 * warm-up segment and then BENCH_ROUNDS (default 3) timed ones. Prints wall time and this process's CPU
 * per event, and where a load's time goes (each step, summed over the timed rounds). On a shared machine
 * the CPU figure is the steadier one. BENCH_FORMATS=rows,batch also times segments of batch records (a
 * log from before ADR 021, loaded through the safe path), the formats taking turns.
 *
 * BENCH_STORE=<file> loads into that DuckDB file instead of a fresh one: a store with history, such as a copy
 * of a file kept by `npm run bench:analytics -- --keep` (10 M events). The loaded events (project
 * `bench-project`) are deleted from it at the end.
 *
 * BENCH_EVENT_STORE=clickhouse loads the rows segments into a fresh chdb instead (support/chdb-load.ts):
 * chdb's CPU per event, the insert apart from the background merges.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDuckDbEventStore } from '../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { LoadStepTiming } from '../src/modules/event-store/duckdb/event-writer.ts';
import { batchRecord } from '../src/modules/event-store/log-records.ts';
import { batchEntry } from '../src/modules/ingestion/log-entries.ts';
import { benchChdbLoads } from './support/chdb-load.ts';
import { batch, benchRequest } from './support/load.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 140_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FORMATS = (process.env.BENCH_FORMATS ?? 'rows').split(',') as Format[];

type Format = 'rows' | 'batch';

function writeSegment(dir: string, name: string, format: Format): string {
  let records = '';
  for (let b = 0; b < EVENTS / 20; b++) {
    const events = (JSON.parse(batch({ apiKey: 'bench' }, `${name}x${b}`).body) as { events: never[] })
      .events;
    const request = benchRequest();
    // The bench's one error event has no incident id in the batch-record segments: it costs nothing here.
    records +=
      format === 'rows' ? batchEntry(request, events).encode(new Set()) : `${batchRecord(request, events)}\n`;
  }
  const file = path.join(dir, `${name}.ndjson`);
  writeFileSync(file, records);
  return file;
}

const perEvent = (ms: number) => ((ms * 1000) / EVENTS).toFixed(1);
const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-load-'));
async function benchDuckDbLoads(): Promise<void> {
  const loadTimings = new Map<string, LoadStepTiming>();
  const storeFile = process.env.BENCH_STORE
    ? path.resolve(process.env.BENCH_STORE)
    : path.join(dir, 'events.duckdb');
  const store = await createDuckDbEventStore({ file: storeFile, loadTimings });
  const results = new Map(
    FORMATS.map((format) => [
      format,
      { wallMs: 0, cpuUs: 0, steps: new Map<string, LoadStepTiming>(), bytes: 0 },
    ]),
  );
  for (let round = 0; round <= ROUNDS; round++) {
    for (const format of FORMATS) {
      const result = results.get(format) as NonNullable<ReturnType<typeof results.get>>;
      const file = writeSegment(dir, `${format}${round}`, format);
      loadTimings.clear();
      const cpu = process.cpuUsage();
      const started = performance.now();
      await store.loadSegment(file);
      const ms = performance.now() - started;
      const { user, system } = process.cpuUsage(cpu);
      if (round > 0) {
        result.wallMs += ms;
        result.cpuUs += user + system;
        for (const [step, timing] of loadTimings) {
          const sum = result.steps.get(step) ?? { wallMs: 0, cpuUs: 0 };
          result.steps.set(step, { wallMs: sum.wallMs + timing.wallMs, cpuUs: sum.cpuUs + timing.cpuUs });
        }
      }
      console.log(
        `${(round === 0 ? 'warm-up' : `round ${round}`).padEnd(8)} ${format.padEnd(5)}: ${EVENTS.toLocaleString('en-US')} events in ${ms.toFixed(0)} ms: ${perEvent(ms)} µs/event wall, ${((user + system) / EVENTS).toFixed(1)} µs/event CPU`,
      );
    }
  }
  const events = EVENTS * ROUNDS;
  for (const [format, { wallMs, cpuUs, steps }] of results) {
    console.log(
      `\n${format} records, timed rounds: ${((wallMs * 1000) / events).toFixed(1)} µs/event wall, ${(cpuUs / events).toFixed(1)} µs/event CPU`,
    );
    console.log('where a load goes (µs per event: wall, CPU):');
    let stepsMs = 0;
    let stepsCpuUs = 0;
    const line = (step: string, stepWallMs: number, stepCpuUs: number) =>
      console.log(
        `  ${step.padEnd(24)} ${perEvent(stepWallMs / ROUNDS).padStart(6)} ${(stepCpuUs / events).toFixed(1).padStart(6)}`,
      );
    for (const [step, timing] of steps) {
      stepsMs += timing.wallMs;
      stepsCpuUs += timing.cpuUs;
      line(step, timing.wallMs, timing.cpuUs);
    }
    line('commit and the rest', wallMs - stepsMs, cpuUs - stepsCpuUs);
  }
  if (process.env.BENCH_STORE) await store.deleteProjectEvents(benchRequest().project);
  await store.close();
}

try {
  if (process.env.BENCH_EVENT_STORE === 'clickhouse')
    await benchChdbLoads(dir, ROUNDS, EVENTS, (round) => writeSegment(dir, `rows${round}`, 'rows'));
  else await benchDuckDbLoads();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
