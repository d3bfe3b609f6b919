import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../alert-channels/receiver.ts';
import { eventRow } from '../analytics/events-fixture.ts';
import { apiClient } from '../support/client.ts';
import { storeRows } from '../support/event-stores.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

const HOUR = 3_600_000;

/** A rule's firing reaches a real webhook through the channels module, as app.ts composes them. */
describe('alert rules with the alert channels', () => {
  const t = useTestApp('sqlite', { webhookAllowPrivateNetworks: true });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it("delivers a no_events firing to the rule's webhook, once, with the notice's id as Polyflow-Delivery", async () => {
    const start = Date.now();
    t.clock.setTo(start);
    const { user, project } = await seed(t.services).user().verified().project('Shop');
    const api = apiClient(t.app);
    await storeRows(t.services.eventStore, [
      eventRow(project.id, new Date(start - HOUR).toISOString(), 'u1', 'page_view'),
    ]);
    const channel = await api.post(`projects/${project.id}/alert-channels`, {
      token: user.token,
      body: { type: 'webhook', name: 'Hook', url: `${receiver.url}/rules` },
    });
    expect(channel.statusCode, channel.body).toBe(201);
    const rule = await api.post(`projects/${project.id}/alert-rules`, {
      token: user.token,
      body: { name: 'Silence', kind: 'no_events', params: { hours: 1 }, channelIds: [channel.json().id] },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    t.clock.setTo(start + HOUR + 1000);
    await t.services.alertRules.evaluate();
    await t.services.alertRules.evaluate();
    const [request, ...more] = await receiver.waitFor(1, 10_000, '/rules');
    await t.services.alertChannels.flush();
    expect(more).toEqual([]);
    const notice = JSON.parse(request?.body ?? '{}');
    expect(notice).toMatchObject({
      type: 'alert.triggered',
      project: { id: project.id, name: 'Shop' },
      rule: { id: rule.json().id, name: 'Silence', kind: 'no_events' },
      subject: { kind: 'project', id: project.id },
      figures: { hours: 1, lastEventAt: new Date(start - HOUR).toISOString() },
    });
    expect(request?.headers['polyflow-delivery']).toBe(notice.id);
    const firings = await api.get(`projects/${project.id}/alert-rules/${rule.json().id}/firings`, {
      token: user.token,
    });
    expect(firings.json().firings.map((firing: { id: string }) => firing.id)).toEqual([notice.id]);
  });
});
