import { describe, expect, it } from 'vitest';
import { specialUseNameReason } from '../../src/modules/alert-channels/address-guard.ts';
import { apiClient, errorOf } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/**
 * docs/alerts.md, "No request forgery". A name that did not resolve when the channel was saved was accepted
 * (its deliveries are checked when they connect): `http://localhost.:4101/`, `ip6-localhost` and
 * `metadata.google.internal` were saved with 201 on this machine (round-39 attack). Names that only ever
 * mean this machine or a private network are refused by name.
 */
describe('webhook hosts named for this machine or a private network', () => {
  it.each([
    'localhost',
    'localhost.',
    'LOCALHOST',
    'api.localhost',
    'ip6-localhost',
    'ip6-loopback',
    'metadata.google.internal',
    'metadata.google.internal.',
    'printer.local',
    'home.arpa',
    'router.home.arpa',
  ])('refuses %s', (host) => {
    expect(specialUseNameReason(host)).toBe('names this machine or a private network');
  });

  it.each([
    'hooks.example.com',
    'localhost.example.com',
    'internal.example.com',
    'local.dev',
    'arpa.example',
  ])('allows %s', (host) => {
    expect(specialUseNameReason(host)).toBeNull();
  });

  const t = useTestApp('sqlite');

  it('answers 400 WEBHOOK_ADDRESS_REFUSED when such a channel is saved, storing nothing', async () => {
    const { user, project } = await seed(t.services).user().verified().project('Shop');
    const channels = `projects/${project.id}/alert-channels`;
    for (const url of [
      'http://localhost.:4101/hook',
      'http://ip6-localhost:8080/',
      'http://metadata.google.internal/',
    ]) {
      const created = await apiClient(t.app).post(channels, {
        token: user.token,
        body: { type: 'webhook', name: 'special', url },
      });
      expect({ url, status: created.statusCode, code: errorOf(created).errorCode }).toEqual({
        url,
        status: 400,
        code: 'WEBHOOK_ADDRESS_REFUSED',
      });
      expect(errorOf(created).message).toMatch(/names this machine or a private network/);
    }
    const listed = await apiClient(t.app).get(channels, { token: user.token });
    expect(listed.json()).toEqual({ alertChannels: [] });
  });
});
