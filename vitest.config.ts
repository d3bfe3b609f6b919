import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One run covers every workspace; each project keeps its own environment. server-clickhouse runs the
// exact-answer suites again on the ClickHouse adapter (apps/server/vitest.clickhouse.config.ts).
export default defineConfig({
  test: {
    projects: [
      'apps/server',
      'apps/server/vitest.clickhouse.config.ts',
      'apps/console',
      'packages/sdk',
      'scripts',
    ],
    // Vitest's default is one worker less than the cores: a single worker on a 2-core machine. Most test
    // files wait on child processes, PostgreSQL, chdb or SMTP, so one worker per core runs the suite in
    // 365 s instead of 500 s there (both green, same machine, quiet). POLYFLOW_TEST_WORKERS=n sets another
    // count, to time the two back to back (ADR 108).
    maxWorkers: Number(process.env.POLYFLOW_TEST_WORKERS) || os.availableParallelism(),
  },
});
