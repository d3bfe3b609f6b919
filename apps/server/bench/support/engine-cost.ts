import { readFileSync } from 'node:fs';

/** A process's CPU so far (user + system), in ms: /proc counts 10 ms ticks, so time many calls. */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export type Cost = { cpuMs: number; p50: number };

/** Two warm-up calls, then `calls` timed ones: process `pid`'s CPU per call and the wall clock's p50. */
export async function costOf(run: () => Promise<unknown>, pid: number, calls: number): Promise<Cost> {
  for (let i = 0; i < 2; i++) await run();
  const samples: number[] = [];
  const before = cpuMsOf(pid);
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  const cpuMs = (cpuMsOf(pid) - before) / calls;
  samples.sort((a, b) => a - b);
  return { cpuMs, p50: samples[Math.floor(samples.length / 2)] ?? Number.NaN };
}
