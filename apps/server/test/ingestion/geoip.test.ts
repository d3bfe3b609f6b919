import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import {
  bundledGeoIpDb,
  createGeoLookup,
  createUserAgentParser,
  GeoIpDatabaseError,
  openGeoIpDatabase,
} from '../../src/modules/ingestion/enrich.ts';
import { writeCountryMmdb } from '../support/country-mmdb.ts';
import { startTestApp, testConfig } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { pageView, postBatch, storedEvents } from './support.ts';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'polyflow-geoip-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('geo-IP with the bundled DB-IP country lite database', () => {
  const geo = createGeoLookup();

  it('places well-known addresses, IPv4 and IPv6, in their countries', () => {
    const known: Record<string, string> = {
      '8.8.8.8': 'US', // Google Public DNS
      '81.2.69.160': 'GB', // MaxMind's test address
      '91.198.174.192': 'NL', // Wikimedia, Amsterdam
      '193.0.6.139': 'NL', // RIPE NCC
      '133.11.0.1': 'JP', // University of Tokyo
      '200.160.2.3': 'BR', // NIC.br
      '2001:200::1': 'JP', // WIDE project
      '2a00:1450:4001::1': 'DE', // Google, Frankfurt
      '::ffff:81.2.69.160': 'GB', // IPv4-mapped, as Node reports IPv4 clients on a dual-stack socket
    };
    const answers = Object.fromEntries(Object.keys(known).map((ip) => [ip, geo(ip)]));
    expect(answers).toEqual(known);
  });

  it('answers null for private, loopback and malformed addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '192.168.0.1', '::1', 'not-an-ip', '']) {
      expect(geo(ip)).toBeNull();
    }
  });

  it('is a current database (built within the last 18 months), not a years-old snapshot', () => {
    const { builtAt } = openGeoIpDatabase(bundledGeoIpDb);
    const ageDays = (Date.now() - builtAt.getTime()) / 86_400_000;
    expect(ageDays).toBeGreaterThanOrEqual(0);
    expect(ageDays).toBeLessThan(548);
  });
});

describe('the geo-IP database on a started server', () => {
  it('is read on the first event that needs a country, and that first event gets its country', async () => {
    const test = await startTestApp('sqlite');
    try {
      await test.app.listen({ port: 0, host: '127.0.0.1' });
      // Listening, idle: the 8 MB database is not in memory yet (issue 33's idle budget).
      expect(test.services.ingest.geoIpLoaded()).toBe(false);
      const { project } = await seed(test.services)
        .user()
        .verified()
        .project('First')
        .apiKey()
        .domain('app.example.com');
      const response = await postBatch(
        test.app,
        { apiKey: project.apiKey as string, events: [pageView({ path: '/first' })] },
        { ip: '81.2.69.160' },
      );
      expect(response.statusCode).toBe(200);
      expect(test.services.ingest.geoIpLoaded()).toBe(true);
      const rows = await storedEvents(test.services, project.id);
      expect(rows.map((row) => [row.path, row.country])).toEqual([['/first', 'GB']]);
    } finally {
      await test.close();
    }
  });
});

describe('GEOIP_DB: the operator’s own country .mmdb', () => {
  const ownDb = path.join(scratch, 'GeoLite2-Country.mmdb');
  writeCountryMmdb(ownDb, [
    { cidr: '81.0.0.0/8', country: 'GB' },
    { cidr: '8.8.8.0/24', country: 'FR' },
  ]);

  it('reads a GeoLite2-Country layout file instead of the bundled one', () => {
    const geo = createGeoLookup(ownDb);
    expect(geo('81.2.69.160')).toBe('GB');
    // The bundled database says US: this answer can only come from the operator's file.
    expect(geo('8.8.8.8')).toBe('FR');
    expect(geo('133.11.0.1')).toBeNull();
  });

  it('is read from the environment and used by ingestion', async () => {
    const config = loadConfig({ DATA_DIR: scratch, GEOIP_DB: ownDb, LOG_LEVEL: 'silent' });
    expect(config.geoipDb).toBe(ownDb);
    expect(loadConfig({ DATA_DIR: scratch }).geoipDb).toBeUndefined();

    const test = await startTestApp('sqlite', { geoipDb: config.geoipDb });
    try {
      const { project } = await seed(test.services)
        .user()
        .verified()
        .project('Geo')
        .apiKey()
        .domain('app.example.com');
      const apiKey = project.apiKey as string;
      for (const ip of ['8.8.8.8', '81.2.69.160']) {
        const response = await postBatch(
          test.app,
          { apiKey, events: [pageView({ path: `/${ip}` })] },
          { ip },
        );
        expect(response.statusCode).toBe(200);
      }
      const rows = await storedEvents(test.services, project.id);
      expect(Object.fromEntries(rows.map((row) => [row.path, row.country]))).toEqual({
        '/8.8.8.8': 'FR',
        '/81.2.69.160': 'GB',
      });
    } finally {
      await test.close();
    }
  });

  it('stops the start with the file named when it is missing or not an .mmdb file', async () => {
    const missing = path.join(scratch, 'nope.mmdb');
    expect(() => loadConfig({ DATA_DIR: scratch, GEOIP_DB: missing })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: scratch, GEOIP_DB: missing })).toThrow(
      `GEOIP_DB: no file at ${missing}`,
    );

    const notMmdb = path.join(scratch, 'countries.csv');
    writeFileSync(notMmdb, '1.0.0.0,1.0.0.255,AU\n');
    const dataDir = mkdtempSync(path.join(scratch, 'data-'));
    await expect(buildApp(testConfig(dataDir, { geoipDb: notMmdb }))).rejects.toThrow(GeoIpDatabaseError);
    await expect(buildApp(testConfig(dataDir, { geoipDb: notMmdb }))).rejects.toThrow(
      `${notMmdb} is not a MaxMind DB (.mmdb) file`,
    );
  });
});

describe('bot detection (isbot)', () => {
  const parse = createUserAgentParser();

  it('flags crawlers, previewers, monitors and HTTP libraries', () => {
    for (const ua of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
      'Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)',
      'curl/8.5.0',
      'python-requests/2.32.3',
      'Go-http-client/2.0',
    ]) {
      expect(parse(ua).isBot, ua).toBe(true);
    }
  });

  it('keeps browsers, including headless Chromium (our end-to-end tests drive it)', () => {
    for (const ua of [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/130.0.0.0 Safari/537.36',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
    ]) {
      expect(parse(ua).isBot, ua).toBe(false);
    }
  });
});
