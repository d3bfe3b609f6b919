/**
 * The load generator of `npm run bench:analytics -- --while-ingesting <events/s>`, as a process of its own:
 * `tsx bench/support/paced-load-process.ts <server url> <project as JSON> <events/s>` sends the ingest
 * bench's batches (support/load.ts) paced at that rate, in slices of two seconds, until it is killed, and
 * prints one JSON line per slice: `{ requests, events, errors, refusals: [[status, count], …], seconds }`.
 */
import { drive } from './load.ts';
import type { BenchProject } from './seed-project.ts';

const [url, projectJson, rate] = process.argv.slice(2);
if (!url || !projectJson || !rate)
  throw new Error('usage: paced-load-process.ts <url> <project JSON> <events/s>');
const project = JSON.parse(projectJson) as BenchProject;

for (let slice = 0; ; slice++) {
  const run = await drive(url, project, {
    concurrency: 32,
    seconds: 2,
    runId: `w${process.pid}s${slice}`,
    eventsPerSecond: Number(rate),
  });
  console.log(
    JSON.stringify({
      requests: run.requests,
      events: run.events,
      errors: run.errors,
      refusals: [...run.refusals],
      seconds: run.seconds,
    }),
  );
}
