import { boundedCache } from '../../lib/bounded-cache.ts';

/**
 * The host of an `Origin` header (`https://app.example.com:8443` → `app.example.com`), lower case, IDN as
 * punycode (what the projects module stores), or null when there is none or it is opaque (`null`).
 */
export function originHost(origin: string | undefined): string | null {
  if (!origin || origin === 'null' || origin.length > 2048) return null;
  // Every batch of a dapp carries the same Origin: parse each distinct one once.
  const cached = hosts.get(origin);
  if (cached !== undefined) return cached;
  const host = parseHost(origin);
  hosts.set(origin, host);
  return host;
}

const hosts = boundedCache<string | null>();

function parseHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    // IPv6 hosts keep their brackets in URL.hostname; the whitelist cannot hold them anyway.
    return url.hostname.replace(/\.$/, '') || null;
  } catch {
    return null;
  }
}

/**
 * Whether a host is on a whitelist of normalised domains: an exact entry, or `*.example.com`, which
 * matches every subdomain (`a.example.com`, `a.b.example.com`) but not `example.com` itself.
 * Ports never matter: they are not part of the host.
 */
export function isHostWhitelisted(host: string, whitelist: readonly string[]): boolean {
  for (const entry of whitelist) {
    if (entry === host) return true;
    if (entry.startsWith('*.') && host.endsWith(entry.slice(1)) && host.length > entry.length - 1)
      return true;
  }
  return false;
}
