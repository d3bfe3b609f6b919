import { describe, expect, it } from 'vitest';
import { apiClient } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { recordingChannels } from './support.ts';

const HOUR = 3_600_000;

describe('the alert evaluation job', () => {
  const channels = recordingChannels();
  // A short period for the test; the configuration's own minimum is 5 s (config.test.ts).
  const t = useTestApp('sqlite', { alertEvaluationIntervalMs: 200 }, channels.options);

  it('evaluates the rules in the background once the server listens, on the configured period', async () => {
    const start = Date.now();
    t.clock.setTo(start);
    const { user, project } = await seed(t.services).user().verified().project();
    const channel = channels.addChannel(project.id);
    const created = await apiClient(t.app).post(`projects/${project.id}/alert-rules`, {
      token: user.token,
      body: { name: 'Silence', kind: 'no_events', params: { hours: 1 }, channelIds: [channel] },
    });
    expect(created.statusCode, created.body).toBe(201);
    t.clock.setTo(start + HOUR + 1000);
    // Injected requests never start the job: nothing until the server listens.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(channels.notices).toEqual([]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const deadline = Date.now() + 5_000;
    while (channels.notices.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(
      channels.notices.map(({ notice, channelIds }) => [notice.type, notice.rule?.name, channelIds]),
    ).toEqual([['alert.triggered', 'Silence', [channel]]]);
    // Later evaluations keep running and fire nothing more for the same silence.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(channels.notices).toHaveLength(1);
  });
});
