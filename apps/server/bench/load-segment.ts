/**
 * `npm run bench:load`: the ingestion loader's cost per event, in isolation from HTTP. The ingest bench's
 * batches (batch records, as ingestion logs them) are written to segment files of BENCH_EVENTS events
 * (default 140,000: the size of a load under heavy ingestion, ADR 007); a fresh store loads a warm-up
 * segment and then BENCH_ROUNDS (default 3) timed ones. Prints wall time and this process's CPU per
 * event, and where a load's time goes (each step, summed over the timed rounds). On a shared machine the
 * CPU figure is the steadier one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDuckDbEventStore } from '../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { LoadStepTiming } from '../src/modules/event-store/duckdb/event-writer.ts';
import { batchEntry } from '../src/modules/ingestion/log-entries.ts';
import { batch } from './support/load.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 140_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function writeSegment(dir: string, name: string): string {
  let records = '';
  for (let b = 0; b < EVENTS / 20; b++) {
    const events = (JSON.parse(batch({ apiKey: 'bench' }, `${name}x${b}`).body) as { events: never[] })
      .events;
    const request = {
      project: 'bench-project',
      origin: 'app.example.com',
      receivedAt: Date.now(),
      sdk: 'polyflow/bench',
      country: 'GB',
      browser: 'Chrome',
      os: 'Linux',
      device: 'desktop',
    };
    records += batchEntry(request, events).encode(new Set());
  }
  const file = path.join(dir, `${name}.ndjson`);
  writeFileSync(file, records);
  return file;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-load-'));
try {
  const loadTimings = new Map<string, LoadStepTiming>();
  const store = await createDuckDbEventStore({ file: path.join(dir, 'events.duckdb'), loadTimings });
  const segments = Array.from({ length: ROUNDS + 1 }, (_, round) => writeSegment(dir, `segment${round}`));
  const perEvent = (ms: number) => ((ms * 1000) / EVENTS).toFixed(1);
  let timedMs = 0;
  let timedCpuUs = 0;
  for (const [round, file] of segments.entries()) {
    if (round === 1) loadTimings.clear();
    const cpu = process.cpuUsage();
    const started = performance.now();
    await store.loadSegment(file);
    const ms = performance.now() - started;
    const { user, system } = process.cpuUsage(cpu);
    if (round > 0) {
      timedMs += ms;
      timedCpuUs += user + system;
    }
    console.log(
      `${round === 0 ? 'warm-up' : `round ${round}`}: ${EVENTS.toLocaleString('en-US')} events in ${ms.toFixed(0)} ms: ${perEvent(ms)} µs/event wall, ${((user + system) / EVENTS).toFixed(1)} µs/event CPU`,
    );
  }
  const events = EVENTS * ROUNDS;
  console.log(
    `\ntimed rounds: ${((timedMs * 1000) / events).toFixed(1)} µs/event wall, ${(timedCpuUs / events).toFixed(1)} µs/event CPU`,
  );
  console.log('where a load goes (µs per event: wall, CPU):');
  let stepsMs = 0;
  let stepsCpuUs = 0;
  const line = (step: string, wallMs: number, cpuUs: number) =>
    console.log(
      `  ${step.padEnd(24)} ${perEvent(wallMs / ROUNDS).padStart(6)} ${(cpuUs / events).toFixed(1).padStart(6)}`,
    );
  for (const [step, { wallMs, cpuUs }] of loadTimings) {
    stepsMs += wallMs;
    stepsCpuUs += cpuUs;
    line(step, wallMs, cpuUs);
  }
  line('commit and the rest', timedMs - stepsMs, timedCpuUs - stepsCpuUs);
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
