import { describe, expect, it } from 'vitest';
import { startReportJob } from '../../src/modules/reports/job.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The leader's report job (app.ts registers it with leadership.runWhileLeading('reports', …)). */
describe('startReportJob', () => {
  it('runs a pass after its start delay and then every interval, one at a time, and stops cleanly', async () => {
    let passes = 0;
    let running = 0;
    let overlapped = false;
    const errors: unknown[] = [];
    const job = startReportJob({
      sendDue: async () => {
        running += 1;
        overlapped ||= running > 1;
        passes += 1;
        await wait(25);
        running -= 1;
        if (passes === 2) throw new Error('store down');
      },
      logger: { error: (details) => errors.push(details) },
      startDelayMs: 5,
      intervalMs: 10,
    });
    await wait(150);
    await job.stop();
    const stoppedAt = passes;
    await wait(60);
    expect(stoppedAt).toBeGreaterThanOrEqual(3);
    expect(passes).toBe(stoppedAt);
    expect(overlapped).toBe(false);
    // A failed pass is logged and the next one runs.
    expect(errors).toHaveLength(1);
  });
});
