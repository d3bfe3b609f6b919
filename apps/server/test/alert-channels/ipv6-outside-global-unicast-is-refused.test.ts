import { describe, expect, it } from 'vitest';
import { refusedAddressReason } from '../../src/modules/alert-channels/address-guard.ts';
import { apiClient, errorOf } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';

/**
 * docs/alerts.md, "No request forgery": only public addresses. ipaddr.js names the IPv6 space it has no
 * range for "unicast", so IPv4-compatible addresses (`::127.0.0.1`, `::10.0.0.1`: the IPv4 loopback and a
 * private network written as IPv6) and the unassigned space outside 2000::/3 were accepted when saved.
 */
describe('IPv6 addresses outside global unicast', () => {
  it.each([
    ['::7f00:1', 'ipv4Compatible'],
    ['::a00:1', 'ipv4Compatible'],
    ['::a9fe:a9fe', 'ipv4Compatible'],
    ['4000::1', 'reserved'],
    ['1::1', 'reserved'],
    ['e000::1', 'reserved'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedAddressReason(address)).toBe(
      `is ${range === 'ipv4Compatible' ? 'an' : 'a'} ${range} address`,
    );
  });

  it.each(['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '3fff:ffff::1'])('allows %s', (address) => {
    expect(refusedAddressReason(address)).toBeNull();
  });

  const t = useTestApp('sqlite');

  it('refuses a webhook to http://[::127.0.0.1]/ with 400 WEBHOOK_ADDRESS_REFUSED, storing nothing', async () => {
    const { user, project } = await seed(t.services).user().verified().project('Shop');
    const channels = `projects/${project.id}/alert-channels`;
    const created = await apiClient(t.app).post(channels, {
      token: user.token,
      body: { type: 'webhook', name: 'compat', url: 'http://[::127.0.0.1]:8080/hook' },
    });
    expect(created.statusCode).toBe(400);
    expect(errorOf(created).errorCode).toBe('WEBHOOK_ADDRESS_REFUSED');
    expect(errorOf(created).message).toMatch(/::7f00:1 is an ipv4Compatible address/);
    const listed = await apiClient(t.app).get(channels, { token: user.token });
    expect(listed.json()).toEqual({ alertChannels: [] });
  });
});
