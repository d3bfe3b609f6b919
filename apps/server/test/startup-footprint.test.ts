import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareMigrationNames, MIGRATION_NAMES } from '../src/db/migrations.ts';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type Footprint = {
  modules: number;
  formattersAtLoad: string[];
  clickhouseDriver: boolean;
  madeByStart: string[];
  graphqlAtStart: boolean;
  graphqlAfterPage?: boolean;
  firstQuery: string;
  graphqlAfterQuery: boolean;
};

/** What loading the server's modules and building a server does, in a fresh process (this worker may have loaded them already). */
async function loadFootprint(...args: string[]): Promise<Footprint> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'test/support/load-footprint.ts', ...args],
    { cwd: serverRoot, encoding: 'utf8' },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
}

// Both probes at once: each spends most of its time waiting on its store's files, not on a core.
let probes: { plain: Promise<Footprint>; page: Promise<Footprint> };
beforeAll(() => {
  probes = { plain: loadFootprint(), page: loadFootprint('--page') };
  // Each test awaits its own; a probe that fails before its test runs is still reported there.
  probes.plain.catch(() => undefined);
  probes.page.catch(() => undefined);
});

// What an idle server keeps resident because its modules or its start loaded it (docs/decisions/089, 099).
describe("the server's modules as they load and the server as it starts", () => {
  it('make no Intl formatter, leave the ClickHouse driver unloaded, and load GraphQL with the first query', {
    timeout: 120_000,
  }, async () => {
    const footprint = await probes.plain;
    // An Intl formatter reads ICU's data from the `node` binary: one NumberFormat keeps about 5 MB of its
    // pages resident for the process's lifetime; `localeCompare` (Kysely's migrator) about 2 MB.
    expect(footprint.formattersAtLoad).toEqual([]);
    expect(footprint.madeByStart).toEqual([]);
    // `@clickhouse/client` comes with the first ClickHouse connection, never on DuckDB (the default).
    expect(footprint.clickhouseDriver).toBe(false);
    // graphql-js, mercurius and the schema (about 7 MB) come with the first GraphQL request.
    expect(footprint.graphqlAtStart).toBe(false);
    expect(JSON.parse(footprint.firstQuery)).toEqual({ data: { health: true } });
    expect(footprint.graphqlAfterQuery).toBe(true);
    // The probe saw the modules load (CommonJS packages such as Fastify's are in require's cache).
    expect(footprint.modules).toBeGreaterThan(50);
  });

  it("makes the GraphQL endpoint when the console's page is asked for", { timeout: 120_000 }, async () => {
    const footprint = await probes.page;
    expect(footprint.graphqlAtStart).toBe(false);
    expect(footprint.graphqlAfterPage).toBe(true);
  });
});

describe('the migrations’ order', () => {
  it('is the same by code unit as by localeCompare, for every migration', () => {
    const byCodeUnit = [...MIGRATION_NAMES].sort(compareMigrationNames);
    expect(byCodeUnit).toEqual([...MIGRATION_NAMES].sort((a, b) => a.localeCompare(b)));
    expect(byCodeUnit.length).toBeGreaterThan(10);
  });
});
