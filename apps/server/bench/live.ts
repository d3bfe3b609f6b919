/**
 * `npm run bench:live`: the real server as a child process (as `bench:ingest` runs it), one live stream
 * open on the project (`GET /api/v1/projects/:id/live`, read by this process like the console reads it),
 * and `bench:ingest`'s load: batches of 20 over keep-alive connections. Prints the delay from each
 * batch's acknowledgement (its answer arriving here) to each of its events' message arriving on the
 * stream, p50/p99/max, and whether every acknowledged event arrived (docs/live.md).
 *
 * BENCH_SECONDS (default 10) and BENCH_CONCURRENCY (default 32) tune the run. This process parses every
 * message and shares the machine's cores with the server: the figures include that.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { drive, percentile } from './support/load.ts';
import { seedProject } from './support/seed-project.ts';
import { freePort, startServer } from './support/server-process.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

/** Opens the stream and records when each event id's message arrived. */
function openStream(url: string, token: string, arrivals: Map<string, number>) {
  let closing = '';
  let buffer = '';
  let request: http.ClientRequest | undefined;
  const opened = new Promise<void>((resolve, reject) => {
    request = http.get(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`live stream answered ${response.statusCode}`));
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const now = performance.now();
        buffer += chunk;
        const end = buffer.lastIndexOf('\n\n');
        if (end < 0) return;
        const complete = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        // Only the id line of each message is read: JSON.parse of every message would be this
        // process's cost, not the server's.
        let at = complete.indexOf('id: ');
        while (at >= 0) {
          const lineEnd = complete.indexOf('\n', at);
          arrivals.set(complete.slice(at + 4, lineEnd), now);
          at = complete.indexOf('\nid: ', lineEnd);
          if (at >= 0) at += 1;
        }
        if (complete.includes('event: closing')) closing = complete.slice(complete.indexOf('event: closing'));
      });
      resolve();
    });
    request.on('error', reject);
  });
  return { opened, close: () => request?.destroy(), closing: () => closing };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-live-'));
  try {
    const project = await seedProject(dataDir);
    // The built bundle, as `npm start` runs it (run `npm run build` first): it starts in time on a busy machine.
    const server = await startServer(dataDir, await freePort(), { built: true });
    console.log(`server ${server.url}, ${os.cpus().length} cores, concurrency ${CONCURRENCY}, ${SECONDS} s`);
    await drive(server.url, project, { concurrency: CONCURRENCY, seconds: 2, runId: 'warm' });

    const arrivals = new Map<string, number>();
    const acknowledged = new Map<string, number>();
    const stream = openStream(
      `${server.url}/api/v1/projects/${project.projectId}/live`,
      project.token,
      arrivals,
    );
    await stream.opened;
    const run = await drive(server.url, project, {
      concurrency: CONCURRENCY,
      seconds: SECONDS,
      runId: 'run',
      onAcknowledged(ids) {
        const now = performance.now();
        for (const id of ids) acknowledged.set(id, now);
      },
    });
    // The last messages may still be on their way.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    stream.close();

    const delays: number[] = [];
    let missing = 0;
    for (const [id, ackedAt] of acknowledged) {
      const arrivedAt = arrivals.get(id);
      if (arrivedAt === undefined) missing++;
      // Negative: the message came before the HTTP answer (both leave the server after the same fdatasync).
      else delays.push(arrivedAt - ackedAt);
    }
    delays.sort((a, b) => a - b);
    console.log(
      `\n${run.events} events acknowledged in ${run.seconds.toFixed(1)} s (${Math.round(run.events / run.seconds).toLocaleString('en-US')} events/s), ${run.errors} refused`,
    );
    console.log(
      `ingest latency p50 ${percentile(
        [...run.latenciesMs].sort((a, b) => a - b),
        50,
      ).toFixed(1)} ms, p99 ${percentile(
        [...run.latenciesMs].sort((a, b) => a - b),
        99,
      ).toFixed(1)} ms`,
    );
    console.log(
      `live messages received: ${arrivals.size}, acknowledged events without a message: ${missing}`,
    );
    console.log(
      `live delivery (ack → message): p50 ${percentile(delays, 50).toFixed(1)} ms, p99 ${percentile(delays, 99).toFixed(1)} ms, max ${(delays.at(-1) ?? Number.NaN).toFixed(1)} ms`,
    );
    if (stream.closing())
      console.log(`the server closed the stream: ${stream.closing().split('\n')[1] ?? ''}`);
    await server.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
