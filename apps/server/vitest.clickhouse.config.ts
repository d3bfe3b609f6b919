import { defineProject } from 'vitest/config';
import server from './vitest.config.ts';

/**
 * The exact-answer suites (and the raw export's) once more on the ClickHouse adapter, the real engine through
 * chdb: the server project's settings with EVENT_STORE=clickhouse, which also makes test/support/global-setup.ts
 * start the run's chdb HTTP servers (one per worker). The root config runs it in the same run as every other
 * project, so the workers share one queue. Alone: `npx vitest run --project server-clickhouse`.
 */
export default defineProject({
  test: {
    ...server.test,
    name: 'server-clickhouse',
    include: [
      'test/analytics/**/*.test.ts',
      'test/acquisition/**/*.test.ts',
      'test/incidents/**/*.test.ts',
      'test/sourcemaps/sourcemaps.test.ts',
      'test/wallets/**/*.test.ts',
      'test/custom-events/**/*.test.ts',
      'test/funnels/custom-funnel.test.ts',
      'test/funnels/custom-funnel-reference.test.ts',
      'test/goals/conversions.test.ts',
      'test/event-export/**/*.test.ts',
      'test/event-store/export-events.test.ts',
      'test/hostile/any-stored-time.test.ts',
      'test/reports/figures.test.ts',
      'test/alert-rules/evaluation.test.ts',
      'test/alert-rules/questions.test.ts',
    ],
    env: { EVENT_STORE: 'clickhouse' },
  },
});
