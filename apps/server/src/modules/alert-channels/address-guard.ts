import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * No request forgery (issue 27, ADR 062): a channel's URL may only reach public unicast addresses. A
 * host is checked when the channel is saved and again at connection time, by the `lookup` the delivery's
 * socket uses, so that a name resolving to a public address at save time and to 127.0.0.1 later (DNS
 * rebinding) is refused too. `WEBHOOK_ALLOW_PRIVATE_NETWORKS=true` lifts the check (tests, LAN receivers).
 */

/** The only IPv6 addresses assigned for the public Internet: global unicast, 2000::/3 (RFC 4291). */
const GLOBAL_UNICAST_V6: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3];
/** IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291): `::127.0.0.1` names the IPv4 loopback. */
const IPV4_COMPATIBLE_V6: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('::'), 96];

/**
 * Why an address may not be reached, or null when it may: loopback, private (RFC 1918), carrier-grade
 * NAT, link-local (cloud metadata, 169.254.169.254), unspecified, IPv6 unique-local (fd00::/8, also
 * metadata), IPv4-mapped and the other special ranges ipaddr.js names; only "unicast" passes, and for IPv6
 * only within global unicast (2000::/3): ipaddr.js calls the rest of the space, IPv4-compatible `::a.b.c.d`
 * included, "unicast" too.
 */
export function refusedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'is not an IP address';
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  if (range !== 'unicast') return `is a ${range} address`;
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.match(IPV4_COMPATIBLE_V6)) return 'is an ipv4Compatible address';
    if (!v6.match(GLOBAL_UNICAST_V6)) return 'is a reserved address';
  }
  return null;
}

/** An error whose message names the refused address; delivery logs it, the routes answer 400 with it. */
export class RefusedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(
      host === address
        ? `${address} ${reason}; only public addresses can be reached`
        : `${host} resolves to ${address}, which ${reason}; only public addresses can be reached`,
    );
    this.name = 'RefusedAddressError';
  }
}

/** The host of a URL as an address or a name: `[::1]` loses its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Names that only ever mean this machine or a private network, refused by name when a channel is saved,
 * whether or not this machine resolves them now (a resolver may later: systemd-resolved answers every
 * `*.localhost` with the loopback): `localhost` and its subdomains (RFC 6761), Debian's `ip6-localhost` and
 * `ip6-loopback`, and the private-use `.internal` (cloud metadata: `metadata.google.internal`), `.local`
 * (mDNS, RFC 6762) and `home.arpa` (RFC 8375). A trailing dot names the same host.
 */
const SPECIAL_USE_NAME =
  /^(?:(?:.+\.)?localhost|ip6-localhost|ip6-loopback|.+\.internal|.+\.local|(?:.+\.)?home\.arpa)$/i;

export function specialUseNameReason(host: string): string | null {
  const name = host.replace(/\.$/, '');
  return SPECIAL_USE_NAME.test(name) ? 'names this machine or a private network' : null;
}

/**
 * At save time: throws RefusedAddressError when the URL's host is, or resolves to, an address that may not
 * be reached. A name that does not resolve (now) is accepted: its deliveries are checked when they connect.
 */
export async function checkUrlHost(url: URL): Promise<void> {
  const host = hostOf(url);
  const special = specialUseNameReason(host);
  if (special) throw new RefusedAddressError(host, host, special);
  if (ipaddr.isValid(host)) {
    const reason = refusedAddressReason(host);
    if (reason) throw new RefusedAddressError(host, host, reason);
    return;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    return;
  }
  for (const { address } of addresses) {
    const reason = refusedAddressReason(address);
    if (reason) throw new RefusedAddressError(host, address, reason);
  }
}

/**
 * The `lookup` of a delivery's socket: resolves as Node does, and fails the connection when any address
 * the name resolves to may not be reached (all of them are checked: the socket may try each in turn).
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    const list = addresses as dns.LookupAddress[];
    for (const { address } of list) {
      const reason = refusedAddressReason(address);
      if (reason) {
        callback(new RefusedAddressError(hostname, address, reason), '', 0);
        return;
      }
    }
    if (options.all) {
      (callback as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, list);
      return;
    }
    const first = list[0];
    if (!first) {
      callback(new Error(`${hostname} has no address`), '', 0);
      return;
    }
    callback(null, first.address, first.family);
  });
};
