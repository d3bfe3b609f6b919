import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const distDir = path.join(serverRoot, 'dist');
const hadDist = existsSync(distDir);
const probeFile = path.join(distDir, `footprint-probe-${process.pid}.mjs`);
const serverFile = path.join(distDir, `footprint-server-${process.pid}.mjs`);

/** As build.mjs bundles dist/server.js: npm packages stay external, but kysely, zod and jose. */
const externalNpmPackages: Plugin = {
  name: 'external-npm-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@polyflow/') || ['kysely', 'zod', 'jose'].includes(args.path)
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

/**
 * The probe (test/support/load-footprint.ts) and the server's modules bundled from the sources as they are
 * now, as build.mjs bundles dist/main.js and dist/server.js, and put beside them in dist/ (src/config.ts
 * finds the console one level up): the probes run what `npm start` runs, without compiling every module
 * through tsx in each of them (about half of a probe's CPU). The server's modules are a bundle of their own
 * that the probe imports once it has counted Intl (a bundle's npm imports are evaluated before its code).
 */
async function bundleProbe(): Promise<void> {
  mkdirSync(distDir, { recursive: true });
  const options = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
  } as const;
  await Promise.all([
    build({
      ...options,
      stdin: {
        contents: "export { buildApp } from './app.ts';\nexport { loadConfig } from './config.ts';\n",
        resolveDir: path.join(serverRoot, 'src'),
        loader: 'ts',
      },
      outfile: serverFile,
      plugins: [externalNpmPackages],
    }),
    build({
      ...options,
      entryPoints: [path.join(serverRoot, 'test/support/load-footprint.ts')],
      outfile: probeFile,
      plugins: [
        {
          name: 'server-bundle',
          setup(builder) {
            builder.onResolve({ filter: /\/src\/(app|config)\.ts$/ }, () => ({
              path: `./${path.basename(serverFile)}`,
              external: true,
            }));
          },
        },
        externalNpmPackages,
      ],
    }),
  ]);
}

/** What loading the server's modules and building a server does, in a fresh process (this worker may have loaded them already). */
async function loadFootprint(bundled: Promise<void>, ...args: string[]): Promise<Footprint> {
  await bundled;
  const { stdout } = await promisify(execFile)(process.execPath, [probeFile, ...args], {
    cwd: serverRoot,
    encoding: 'utf8',
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
}

// Both probes at once: each spends most of its time waiting on its store's files, not on a core.
let probes: { plain: Promise<Footprint>; page: Promise<Footprint> };
beforeAll(() => {
  const bundled = bundleProbe();
  probes = { plain: loadFootprint(bundled), page: loadFootprint(bundled, '--page') };
  // Each test awaits its own; a probe that fails before its test runs is still reported there.
  probes.plain.catch(() => undefined);
  probes.page.catch(() => undefined);
});
afterAll(async () => {
  await Promise.allSettled([probes.plain, probes.page]);
  for (const file of [probeFile, serverFile]) rmSync(file, { force: true });
  // A dist/ made here only for the probes goes too, unless a build has written into it meanwhile.
  if (!hadDist) {
    try {
      rmdirSync(distDir);
    } catch {}
  }
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
