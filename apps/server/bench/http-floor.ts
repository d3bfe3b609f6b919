/**
 * `npm run bench:floor`: what this machine spends per event on the part of ingestion that no design of
 * ours can remove: the load generator of `npm run bench:ingest` (the same one), HTTP/1.1 keep-alive, reading
 * each batch of 20 and parsing its JSON, and answering. The servers (bench/support/http-floor-server.ts)
 * store nothing: one on node:http alone, one on Fastify. Each is offered the bench's paced rates, and the
 * script prints, per rate, the server's and the generator's CPU per event and what is left of the 2-core
 * budget (50,000 events/s: `cores × 1 s / 50,000` of CPU per event) for validation, the log and the loader.
 *
 * BENCH_RATE (default 25000,50000) and BENCH_SECONDS (default 10) as in bench:ingest.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drive, percentile } from './support/load.ts';
import { freePort } from './support/server-process.ts';

const RATES = (process.env.BENCH_RATE ?? '25000,50000').split(',').filter(Boolean).map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BUDGET_EVENTS_PER_SECOND = 50_000;
const serverScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/http-floor-server.ts');

/** CPU seconds (user + system) of a process, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function measure(framework: 'node:http' | 'fastify'): Promise<void> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--max-semi-space-size=32',
      '--import',
      'tsx',
      serverScript,
      framework === 'fastify' ? 'fastify' : 'http',
      String(port),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the floor server exited with ${code}`)));
      child.stdout?.once('data', () => resolve());
    });
    const url = `http://127.0.0.1:${port}`;
    // The generator needs only an API key and an origin: the floor checks neither.
    const project = { apiKey: 'pk_floor', origin: 'https://app.example.com', projectId: 'floor', token: '' };
    await drive(url, project, { concurrency: 32, seconds: 2, runId: 'warm' });
    for (const rate of RATES) {
      const clientBefore = process.cpuUsage();
      const serverBefore = cpuSeconds(child.pid as number);
      const run = await drive(url, project, {
        concurrency: 32,
        seconds: SECONDS,
        runId: `r${rate}`,
        eventsPerSecond: rate,
      });
      const client = process.cpuUsage(clientBefore);
      const serverUs = (cpuSeconds(child.pid as number) - serverBefore) * 1e6;
      const clientUs = client.user + client.system;
      const sorted = [...run.latenciesMs].sort((a, b) => a - b);
      const perEvent = (us: number) => us / Math.max(1, run.events);
      const budgetUs = (os.cpus().length * 1e6) / BUDGET_EVENTS_PER_SECOND;
      const floorUs = perEvent(serverUs) + perEvent(clientUs);
      console.log(
        `${framework}, offered ${rate.toLocaleString('en-US')} events/s: ${Math.round(run.events / run.seconds).toLocaleString('en-US')} answered, ${run.errors} refused, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
      );
      console.log(
        `  server ${perEvent(serverUs).toFixed(1)} µs per event (${(serverUs / 1e6 / run.seconds).toFixed(2)} cores), generator ${perEvent(clientUs).toFixed(1)} µs per event: floor ${floorUs.toFixed(1)} of the ${budgetUs.toFixed(0)} µs per event that ${os.cpus().length} cores allow at ${BUDGET_EVENTS_PER_SECOND.toLocaleString('en-US')} events/s, ${(budgetUs - floorUs).toFixed(1)} left`,
      );
    }
  } finally {
    child.kill();
  }
}

console.log(
  `the ingestion floor: ${os.cpus().length} cores, batches of 20, concurrency 32, ${SECONDS} s per rate`,
);
await measure('node:http');
await measure('fastify');
