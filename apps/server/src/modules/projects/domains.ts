import { domainToASCII } from 'node:url';

export type DomainResult = { ok: true; domain: string } | { ok: false; message: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const INVALID = 'Enter a domain such as example.com, *.example.com or localhost.';

/**
 * Turns what a person pastes (a URL, a host with a port, an IDN) into the host name the SDK's Origin
 * header will carry: lower case, no scheme, path, port or trailing dot, IDN as punycode.
 * A leftmost `*.` wildcard, `localhost` and IPv4 addresses are allowed.
 */
export function normaliseDomain(input: string): DomainResult {
  let host = input.trim().toLowerCase();
  if (host.includes('\0') || /\s/.test(host)) return { ok: false, message: INVALID };
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  host = host.split(/[/?#]/, 1)[0] ?? '';
  if (host.includes('@') || host.includes('[')) return { ok: false, message: INVALID };
  host = host.replace(/:\d{1,5}$/, '').replace(/\.$/, '');

  const isWildcard = host.startsWith('*.');
  const base = isWildcard ? host.slice(2) : host;
  if (base.includes('*')) return { ok: false, message: 'Only a leftmost "*." wildcard is allowed.' };

  if (IPV4.test(base)) {
    return isWildcard
      ? { ok: false, message: 'A wildcard cannot apply to an IP address.' }
      : { ok: true, domain: base };
  }
  if (base === 'localhost') return { ok: true, domain: host };

  // domainToASCII applies IDNA (punycode) and answers '' for what cannot be a domain.
  const ascii = domainToASCII(base);
  if (!ascii || ascii.length > 253) return { ok: false, message: INVALID };
  const labels = ascii.split('.');
  const tld = labels.at(-1) ?? '';
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label)) || /^\d+$/.test(tld)) {
    return { ok: false, message: INVALID };
  }
  return { ok: true, domain: isWildcard ? `*.${ascii}` : ascii };
}
