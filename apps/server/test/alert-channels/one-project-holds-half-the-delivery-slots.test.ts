import { CreatedAlertChannelSchema } from '@polyflow/contracts/alert-channels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { apiClient } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { type Receiver, startReceiver } from './receiver.ts';

/**
 * A node delivers 4 notices at once, one per channel (docs/alerts.md, "Delivery"). A project with four
 * webhooks that all hang (round-39 check) held all 4 for the 10 s bound of each attempt, round after round,
 * and every other project's notices waited. One project now holds at most half of them: another project's
 * notice goes out while the hanging ones are still hanging.
 */
describe('alert delivery slots', () => {
  const t = useTestApp('sqlite', { webhookAllowPrivateNetworks: true });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  async function webhook(token: string, projectId: string, path: string) {
    const response = await apiClient(t.app).post(`projects/${projectId}/alert-channels`, {
      token,
      body: { type: 'webhook', name: path, url: `${receiver.url}${path}` },
    });
    expect(response.statusCode, response.body).toBe(201);
    return CreatedAlertChannelSchema.parse(response.json()).id;
  }
  const notice = (projectId: string) => ({
    id: newId(),
    type: 'alert.triggered' as const,
    project: { id: projectId, name: 'P' },
    rule: { id: newId(), name: 'Checkout failures', kind: 'tx_fail_rate' as const },
    at: new Date().toISOString(),
    subject: { kind: 'project' as const, id: projectId },
    figures: { failRatePercent: 42.5, transactions: 40, failed: 17, windowMinutes: 15 },
    url: `http://polyflow.test/console/${projectId}/analytics`,
  });

  it("leaves half the node's slots to the other projects when one project's receivers all hang", async () => {
    const noisy = await seed(t.services).user().verified().project('Noisy');
    const other = await seed(t.services).user().verified().project('Other');
    const hanging: string[] = [];
    for (let index = 0; index < 4; index++) {
      const path = `/hang-${index}`;
      receiver.byPath.set(path, { hang: true });
      hanging.push(await webhook(noisy.user.token, noisy.project.id, path));
    }
    const fine = await webhook(other.user.token, other.project.id, '/fine');

    for (const channel of hanging)
      await t.services.alertChannels.enqueueNotice(notice(noisy.project.id), [channel]);
    // Two of the four reach their receivers and hang there; the other two wait for a slot of their project.
    await receiver.waitFor(2, 5_000);
    await t.services.alertChannels.enqueueNotice(notice(other.project.id), [fine]);
    // Delivered well inside the hanging attempts' 10 s bound: before any of them ended.
    await receiver.waitFor(1, 5_000, '/fine');
    const hangsSoFar = receiver.received.filter((request) => request.path.startsWith('/hang-'));
    expect(hangsSoFar).toHaveLength(2);
  });
});
