// Preloaded into the bench's server (`--import`, by bench/support/server-process.ts when BENCH_LOOP_DELAY_FILE
// is set): once a second, appends the event loop's delay over that second (p99 and max, ms) to the file.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_DELAY_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  setInterval(() => {
    const line = { at: Date.now(), p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
    histogram.reset();
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 1_000).unref();
}
