import { describe, expect, it } from 'vitest';
import { isRateAbove } from '../../src/modules/alert-rules/conditions.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { txRows } from '../analytics/events-fixture.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { recordingChannels } from './support.ts';

const MINUTE = 60_000;

/**
 * docs/alerts.md: `tx_fail_rate` fires when the fail rate is **above** `thresholdPercent`. Compared as
 * floating point (`failed / attempted * 100 > thresholdPercent`), 7 failed of 100 is 7.000000000000001 %
 * and fired a 7 % rule, its notice reading "failRatePercent: 7, thresholdPercent: 7".
 */
describe('a fail rate exactly at its threshold', () => {
  it.each([
    [7, 100, 7, false],
    [14, 100, 14, false],
    [28, 100, 28, false],
    [55, 100, 55, false],
    [1, 40, 2.5, false],
    [1, 3, 33.333333, true],
    [1, 3, 33.333334, false],
    [8, 100, 7, true],
    [2, 79, 2.5, true],
    [0, 10, 0, false],
    [1, 1_000_000, 0, true],
    [10, 10, 100, false],
  ])('%i failed of %i against a threshold of %s: above is %s', (failed, attempted, threshold, above) => {
    expect(isRateAbove(failed, attempted, threshold)).toBe(above);
  });

  const channels = recordingChannels();
  const t = useTestApp('sqlite', {}, channels.options);

  it('does not fire a 7 % rule for 7 failed of 100 (the evaluation and its preview), and fires at 8 of 100', async () => {
    const t0 = Math.floor(t.clock().getTime() / MINUTE) * MINUTE + 30_000;
    t.clock.setTo(t0);
    const { user, project } = await seed(t.services).user().verified().project('Swaps');
    const channel = channels.addChannel(project.id);
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    const transactions = (from: number, count: number, failed: number): EventRow[] =>
      Array.from({ length: count }, (_, i) =>
        txRows(project.id, {
          txId: `tx-${from + i}`,
          user: 'u1',
          kind: 'contract',
          chainId: 1,
          hash: `0x${(from + i + 1).toString(16).padStart(64, '0')}`,
          stages:
            i < failed
              ? [
                  ['requested', at(-5 * MINUTE + i)],
                  ['failed', at(-5 * MINUTE + i + 1)],
                ]
              : [
                  ['requested', at(-5 * MINUTE + i)],
                  ['submitted', at(-5 * MINUTE + i + 1)],
                ],
        }),
      ).flat();
    await storeRows(t.services.eventStore, transactions(0, 100, 7));
    const params = { windowMinutes: 15, thresholdPercent: 7, minTransactions: 1 };
    const created = await apiClient(t.app).post(`projects/${project.id}/alert-rules`, {
      token: user.token,
      body: { name: 'Above 7 %', kind: 'tx_fail_rate', params, channelIds: [channel] },
    });
    expect(created.statusCode, created.body).toBe(201);
    channels.take();
    await t.services.alertRules.evaluate();
    expect(channels.take()).toEqual([]);
    const preview = await apiClient(t.app).post(`projects/${project.id}/alert-rules/preview`, {
      token: user.token,
      body: { kind: 'tx_fail_rate', params },
    });
    expect(preview.json()).toEqual({ firings: [] });

    // One more failure: 8 of 101 is 7.9 %, above 7 %.
    await storeRows(t.services.eventStore, transactions(100, 1, 1));
    t.clock.setTo(t0 + MINUTE);
    await t.services.alertRules.evaluate();
    expect(channels.take().map(({ notice }) => notice.figures)).toEqual([
      {
        failRatePercent: 7.9,
        transactions: 101,
        attempted: 101,
        failed: 8,
        windowMinutes: 15,
        thresholdPercent: 7,
      },
    ]);
  });
});
