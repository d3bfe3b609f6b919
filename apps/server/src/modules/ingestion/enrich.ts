import { createRequire } from 'node:module';
import UAParser from 'ua-parser-js';
import { boundedCache } from '../../lib/bounded-cache.ts';

export type ClientFacts = {
  browser: string | null;
  os: string | null;
  device: string | null;
  isBot: boolean;
};
export type GeoLookup = (ip: string) => string | null;

/**
 * Crawlers, link previewers, monitors and HTTP libraries. Headless Chromium ("HeadlessChrome") is not on
 * the list on purpose: our own end-to-end tests drive it, and real dapp users never do.
 */
const BOT_PATTERN =
  /bot\b|bot\/|crawl|spider|slurp|archiver|facebookexternalhit|facebookcatalog|embedly|quora link preview|outbrain|pinterest\/|vkshare|w3c_validator|whatsapp|lighthouse|pagespeed|pingdom|uptimerobot|statuscake|site24x7|phantomjs|python-requests|python-urllib|aiohttp|go-http-client|okhttp|java\/|libwww|wget|curl\/|httpclient|scrapy|headlesschrome-bot/i;

const UNKNOWN: ClientFacts = { browser: null, os: null, device: null, isBot: false };

/** Browser, OS and device from a User-Agent (ua-parser-js 1.x, MIT), cached per distinct string. */
export function createUserAgentParser() {
  const cache = boundedCache<ClientFacts>();
  return (userAgent: string | undefined): ClientFacts => {
    if (!userAgent) return UNKNOWN;
    const ua = userAgent.slice(0, 512);
    const cached = cache.get(ua);
    if (cached) return cached;
    const result = new UAParser(ua).getResult();
    const facts: ClientFacts = {
      browser: result.browser.name ?? null,
      os: result.os.name ?? null,
      // ua-parser-js names only non-desktop devices.
      device: result.device.type ?? (result.browser.name ? 'desktop' : null),
      isBot: BOT_PATTERN.test(ua),
    };
    cache.set(ua, facts);
    return facts;
  };
}

type GeoIpModule = { lookup(ip: string): { country?: string } | null };

/**
 * Country (ISO 3166-1 alpha-2) from an IP with geoip-lite's bundled database. Loading it takes most
 * of a second, so it happens once, on the first lookup or on `preload()` at start-up.
 */
export function createGeoLookup(): GeoLookup & { preload(): void } {
  let geoip: GeoIpModule | undefined;
  const cache = boundedCache<string | null>();
  const load = (): GeoIpModule => {
    geoip ??= createRequire(import.meta.url)('geoip-lite') as GeoIpModule;
    return geoip;
  };
  const lookup = (ip: string): string | null => {
    const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
    const cached = cache.get(address);
    if (cached !== undefined) return cached;
    const country = load().lookup(address)?.country || null;
    cache.set(address, country);
    return country;
  };
  return Object.assign(lookup, { preload: () => void load() });
}
