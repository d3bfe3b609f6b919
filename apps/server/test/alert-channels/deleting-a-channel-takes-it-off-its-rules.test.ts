import { CreatedAlertChannelSchema } from '@polyflow/contracts/alert-channels';
import { AlertRuleListSchema, AlertRuleSchema } from '@polyflow/contracts/alert-rules';
import { describe, expect, it } from 'vitest';
import { apiClient } from '../support/client.ts';
import { ENGINES, useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/**
 * docs/alerts.md: a rule's `channelIds` are the project's channels (an unknown id is refused). Deleting a
 * channel used to leave its id in the rules that named it, so the rule listed a channel that no longer
 * exists and saving it back as listed (the console's Edit) was refused with "Unknown alert channel".
 */
describe.each(ENGINES)('deleting an alert channel on %s', (engine) => {
  const t = useTestApp(engine, { webhookAllowPrivateNetworks: true });
  const api = () => apiClient(t.app);

  it('takes the channel off every rule that named it, and the rule can be saved back as listed', async () => {
    const { user, project } = await seed(t.services).user().verified().project('Shop');
    const channels = `projects/${project.id}/alert-channels`;
    const rules = `projects/${project.id}/alert-rules`;
    const webhook = async (name: string) => {
      const created = await api().post(channels, {
        token: user.token,
        body: { type: 'webhook', name, url: `http://127.0.0.1:9/${name}` },
      });
      expect(created.statusCode, created.body).toBe(201);
      return CreatedAlertChannelSchema.parse(created.json()).id;
    };
    const gone = await webhook('gone');
    const kept = await webhook('kept');
    const both = await api().post(rules, {
      token: user.token,
      body: { name: 'Both', kind: 'incident_regression', params: {}, channelIds: [gone, kept] },
    });
    const onlyGone = await api().post(rules, {
      token: user.token,
      body: { name: 'Only gone', kind: 'no_events', params: { hours: 1 }, channelIds: [gone] },
    });
    const other = await api().post(rules, {
      token: user.token,
      body: { name: 'Other', kind: 'no_events', params: { hours: 2 }, channelIds: [kept] },
    });
    for (const created of [both, onlyGone, other]) expect(created.statusCode, created.body).toBe(201);

    expect((await api().delete(`${channels}/${gone}`, { token: user.token })).statusCode).toBe(204);

    const listed = AlertRuleListSchema.parse((await api().get(rules, { token: user.token })).json());
    expect(listed.alertRules.map((rule) => [rule.name, rule.channelIds])).toEqual([
      ['Both', [kept]],
      ['Only gone', []],
      ['Other', [kept]],
    ]);
    for (const rule of listed.alertRules) {
      const saved = await api().patch(`${rules}/${rule.id}`, {
        token: user.token,
        body: { name: rule.name, channelIds: rule.channelIds },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(AlertRuleSchema.parse(saved.json()).channelIds).toEqual(rule.channelIds);
    }
  });
});
