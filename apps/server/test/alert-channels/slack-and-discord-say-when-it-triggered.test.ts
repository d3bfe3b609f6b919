import type { AlertNotice } from '@polyflow/contracts/alert-channels';
import { describe, expect, it } from 'vitest';
import { discordMessage, emailMessage, slackMessage } from '../../src/modules/alert-channels/formats.ts';

/**
 * docs/alerts.md, "Channels": the email, Slack and Discord messages print when the alert triggered on the
 * project's clock, with the zone and its offset. The email did; Slack's and Discord's messages had the
 * figures and the link but no time at all.
 */
describe('Slack and Discord messages say when the notice happened', () => {
  // New York's clocks went back at 06:00 UTC on 1 Nov 2026: 05:30 UTC is the first 01:30 (EDT, UTC−4),
  // 06:30 UTC the second (EST, UTC−5).
  const notice = (at: string): AlertNotice => ({
    id: '7d0f6a52-3c1e-4a7b-9d51-2f4e8c0b1a93',
    type: 'alert.resolved',
    project: { id: 'p1', name: 'Shop' },
    rule: { id: 'r1', name: 'Checkout failures', kind: 'tx_fail_rate' },
    at,
    subject: { kind: 'project', id: 'p1' },
    figures: { failRatePercent: 2.5 },
    url: 'https://polyflow.example.com/console/p1/analytics',
  });
  const unescaped = (text: string) => text.replace(/\\(.)/g, '$1');
  const zone = 'America/New_York';

  it.each([
    ['2026-11-01T05:30:00.000Z', '1 Nov 2026, 01:30 (America/New_York, UTC−4)'],
    ['2026-11-01T06:30:00.000Z', '1 Nov 2026, 01:30 (America/New_York, UTC−5)'],
  ])('at %s: "At: %s" in Slack, Discord and the email alike', (at, local) => {
    const line = `At: ${local}`;
    expect(slackMessage(notice(at), zone).text.split('\n')).toContain(line);
    expect(discordMessage(notice(at), zone).content.split('\n').map(unescaped)).toContain(line);
    expect(emailMessage(notice(at), zone).text.split('\n')).toContain(line);
  });

  it('on a UTC project the time is UTC', () => {
    const at = '2026-11-29T04:10:00.000Z';
    expect(slackMessage(notice(at), 'UTC').text).toContain('\nAt: 29 Nov 2026, 04:10 (UTC)\n');
    expect(unescaped(discordMessage(notice(at), 'UTC').content)).toContain(
      '\nAt: 29 Nov 2026, 04:10 (UTC)\n',
    );
  });
});
