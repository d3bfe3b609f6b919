// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_VERSION } from '../src/transport.ts';

// What a dapp developer gets from `npm install @polyflow/sdk`: the tarball `npm pack` makes (the same one
// `npm publish` uploads), installed into a project of its own, outside this repository's workspaces.
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const repoRoot = join(packageDir, '..', '..');
const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const BUDGET_BYTES = 4096;
const ADDON_BUDGET_BYTES = 1024;
const npmEnv = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

let scratch: string;
let tarball: string;
let installed: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'polyflow-sdk-pack-'));
  // `prepack` builds dist/ first, so the tarball never ships stale bundles.
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], {
      cwd: packageDir,
      env: npmEnv,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).replace(/^[^[]*/, ''),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(scratch, packed[0]?.filename ?? '');
  const project = join(scratch, 'dapp');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'scratch-dapp', private: true, type: 'module' }),
  );
  // The package has no dependencies, so installing its tarball needs nothing from the registry.
  execFileSync('npm', ['install', '--offline', '--no-package-lock', tarball], {
    cwd: project,
    env: npmEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  installed = join(project, 'node_modules', '@polyflow', 'sdk');
}, 120_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the packed @polyflow/sdk', () => {
  it('ships the bundles, the types, the README and the licence, and no sources or tests', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(listing).toEqual([
      'package/LICENSE',
      'package/README.md',
      'package/dist/index.d.ts',
      'package/dist/polyflow-addon.esm.js',
      'package/dist/polyflow.esm.js',
      'package/dist/polyflow.iife.js',
      'package/package.json',
    ]);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@polyflow/sdk', version: '2.0.0', license: 'MIT' });
    expect(manifest.private).toBeUndefined();
    expect(manifest.dependencies).toBeUndefined();
    // Batches say which SDK sent them; that must be the version npm installed.
    expect(SDK_VERSION).toBe(manifest.version);
  });

  it('keeps every packed core bundle within 4 KB and the add-on within 1 KB, minified + gzip', () => {
    const bundles = readdirSync(join(installed, 'dist')).filter((file) => file.endsWith('.js'));
    expect(bundles.sort()).toEqual(['polyflow-addon.esm.js', 'polyflow.esm.js', 'polyflow.iife.js']);
    for (const file of bundles) {
      const budget = file === 'polyflow-addon.esm.js' ? ADDON_BUDGET_BYTES : BUDGET_BYTES;
      const gzip = gzipSync(readFileSync(join(installed, 'dist', file)), { level: 9 }).length;
      console.log(`packed dist/${file}: ${gzip} bytes minified+gzip (budget ${budget})`);
      expect(gzip).toBeLessThanOrEqual(budget);
    }
  });

  it('imports by its package name in Node (no window: attach is inert and never throws)', () => {
    const project = dirname(dirname(dirname(installed)));
    writeFileSync(
      join(project, 'ssr.mjs'),
      [
        "import { attach, OPT_OUT_KEY } from '@polyflow/sdk';",
        "const handle = attach('key', { host: 'https://polyflow.example' });",
        'await handle.flush();',
        'handle.optOut(); handle.optIn(); handle.detach();',
        'console.log(JSON.stringify({ type: typeof attach, key: OPT_OUT_KEY, methods: Object.keys(handle).sort() }));',
      ].join('\n'),
    );
    const output = execFileSync(process.execPath, ['ssr.mjs'], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({
      type: 'function',
      key: 'pf_optout',
      methods: ['detach', 'flush', 'identify', 'optIn', 'optOut', 'track'],
    });
    // The script-tag build is reachable through the exports map too (for bundlers that copy it).
    const resolved = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', "console.log(import.meta.resolve('@polyflow/sdk/script'))"],
      { cwd: project, encoding: 'utf8' },
    );
    expect(resolved.trim()).toMatch(/\/node_modules\/@polyflow\/sdk\/dist\/polyflow\.iife\.js$/);
  }, 30_000);

  it('type-checks a dapp using it, and rejects a wrong use', () => {
    const project = dirname(dirname(dirname(installed)));
    // One compiler run over both files (each run loads the DOM's types, seconds of CPU): the dapp's file
    // must have no error at all, the wrong use exactly its own.
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          strict: true,
          noEmit: true,
          types: [],
        },
        files: ['usage.ts', 'wrong-use.ts'],
      }),
    );
    writeFileSync(
      join(project, 'usage.ts'),
      [
        "import { attach, type AttachOptions, type PolyflowHandle } from '@polyflow/sdk';",
        "const options: AttachOptions = { host: 'https://polyflow.example', flushIntervalMs: 1000, debug: true };",
        "const polyflow: PolyflowHandle = attach('YOUR_API_KEY', options);",
        'export const flushed: Promise<void> = polyflow.flush();',
        "polyflow.track('swap_quote_shown', { pair: 'ETH/USDC', amount: 1.5, exact: true });",
        "polyflow.identify('user-42', { plan: 'pro' });",
        "window.Polyflow?.track?.('from_the_script_tag');",
        '// @ts-expect-error properties are flat: no nested objects',
        "polyflow.track('bad', { nested: { a: 1 } });",
        '// The types are real, not `any`: a wrong option is an error (an unused expectation would be one too).',
        '// @ts-expect-error gqlApi was the 1.0.25 option; 2.0 takes host',
        "attach('YOUR_API_KEY', { gqlApi: 'https://polyflow.example/api/graphql' });",
      ].join('\n'),
    );
    writeFileSync(join(project, 'wrong-use.ts'), "import { attach } from '@polyflow/sdk';\nattach(42);\n");
    let failure = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    } catch (error) {
      failure = String((error as { stdout?: string }).stdout);
    }
    const errors = failure.split('\n').filter((line) => /: error TS\d+:/.test(line));
    expect(errors).toEqual([
      expect.stringMatching(
        /^wrong-use\.ts\(2,8\): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'/,
      ),
    ]);
  }, 60_000);
});
